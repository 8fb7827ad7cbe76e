package web

// Reading request bodies: size limits and strict JSON.

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

// ReadBody reads r's whole body, at most limit bytes (413 beyond; other
// faults are 400s).
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, err
		}
		return nil, badRequest("reading the request body: %v", err)
	}
	return b, nil
}

// DecodeJSON decodes b into v strictly: one value, no unknown fields
// (keys matched to fields in ASCII case only: CheckKeys), no key twice in
// an object, nothing after it; an empty b is refused. Its errors are 400s.
func DecodeJSON(b []byte, v any) error {
	if len(strings.TrimSpace(string(b))) == 0 {
		return badRequest("empty request body; want JSON")
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("%s", jsonWords(err, v))
	}
	if dec.More() {
		return badRequest("bad JSON: more than one value")
	}
	if _, err := dec.Token(); err != io.EOF {
		return badRequest("bad JSON: data after the value")
	}
	if err := CheckKeys(b, v); err != nil {
		return badRequest("%v", err)
	}
	// A body that says two things at once is refused, not half-heard, as
	// a WebSocket message is.
	if k, ok := DuplicateKey(b, v); ok {
		return badRequest("bad JSON: key %.40q given twice", k)
	}
	return nil
}

// ReadJSON decodes r's body into v strictly (DecodeJSON), reading at most
// limit bytes (413 beyond).
func ReadJSON(w http.ResponseWriter, r *http.Request, v any, limit int64) error {
	b, err := ReadBody(w, r, limit)
	if err != nil {
		return err
	}
	return DecodeJSON(b, v)
}
