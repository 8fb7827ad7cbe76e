package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// unavailableErr is a store's error of a database out of reach.
type unavailableErr struct{}

func (unavailableErr) Error() string     { return "conn closed" }
func (unavailableErr) Unavailable() bool { return true }

// notAnsweringErr is the store's error of PostgreSQL not answering a
// connection being opened (pgstore's notAnswering): out of reach, with
// the wait's context.DeadlineExceeded in its chain.
type notAnsweringErr struct{ unavailableErr }

func (notAnsweringErr) Error() string {
	return "PostgreSQL did not answer within 2s: context deadline exceeded"
}
func (notAnsweringErr) Unwrap() error { return context.DeadlineExceeded }

func TestStatus(t *testing.T) {
	tests := []struct {
		err  error
		code int
		msg  string
	}{
		{badRequest("suits %d", 3), 400, "suits 3"},
		{Errorf(ErrBadRequest, "suits %d", 3), 400, "suits 3"},
		{fmt.Errorf("game x: %w", ErrNotFound), 404, "game x: not found"},
		{&requestError{ErrForbidden, "host"}, 403, "host"},
		{&requestError{errMethod, "no"}, 405, "no"},
		{&http.MaxBytesError{Limit: 10}, 413, "request body too large (limit 10 bytes)"},
		{Errorf(ErrUnprocessable, "9C on QD"), 422, "9C on QD"},
		{Errorf(ErrNotImplemented, "no solver"), 501, "no solver"},
		{context.Canceled, 503, "server busy or shutting down; try again"},
		{fmt.Errorf("%w: table stopped", ErrUnavailable), 503, "server busy or shutting down; try again"},
		{errors.New("disk on fire"), 500, "internal error"},
		{fmt.Errorf("saving: %w", unavailableErr{}), 503, "the server cannot reach its database just now; try again in a moment"},
		{fmt.Errorf("saving: %w", notAnsweringErr{}), 503, "the server cannot reach its database just now; try again in a moment"},
		{fmt.Errorf("saving: %w", noConnErr{}), 503, "the server's database is too slow just now; try again in a moment"},
		{context.DeadlineExceeded, 503, "server busy or shutting down; try again"},
	}
	for _, tc := range tests {
		t.Run(tc.err.Error(), func(t *testing.T) {
			code, msg := status(tc.err)
			if code != tc.code || msg != tc.msg {
				t.Fatalf("got %d %q, want %d %q", code, msg, tc.code, tc.msg)
			}
		})
	}
}

// TestClassOutOfReach: the database out of reach is of class
// "unavailable", as its status is 503: a table's client reads a
// refusal's class, not its status.
func TestClassOutOfReach(t *testing.T) {
	err := fmt.Errorf("could not store the table: %w", unavailableErr{})
	if code, _ := status(err); code != http.StatusServiceUnavailable || ClassName(err) != "unavailable" {
		t.Fatalf("status %d, class %q; want 503, unavailable", code, ClassName(err))
	}
	if ClassName(errors.New("disk on fire")) != "internal" {
		t.Fatal("a fault of another kind is not internal")
	}
}

// TestPublic: a server fault given a message for the player answers with
// it, and its own text goes to the log only; a message never replaces a
// client error's.
func TestPublic(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code int
		msg  string
	}{
		{Public(fmt.Errorf("%w: /x.db gone", ErrUnavailable), "restart the server"), 503, "restart the server"},
		{Public(errors.New("disk on fire"), "the disk is on fire"), 500, "the disk is on fire"},
		{Public(Errorf(ErrConflict, "seat taken"), "hidden"), 409, "seat taken"},
	} {
		rec := httptest.NewRecorder()
		WriteError(rec, httptest.NewRequest("GET", "/", nil), nil, tc.err)
		var body errorBody
		if rec.Code != tc.code || !decodes(rec.Body.Bytes(), &body) || body.Error != tc.msg {
			t.Errorf("%v: %d %s, want %d %q", tc.err, rec.Code, rec.Body, tc.code, tc.msg)
		}
	}
}
