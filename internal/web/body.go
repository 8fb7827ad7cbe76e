package web

// Reading request bodies: size limits and strict JSON.

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

// readBody reads the whole body, up to limit bytes (413 beyond).
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
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

func unmarshalStrict(b []byte, v any, emptyOK bool) error {
	if len(strings.TrimSpace(string(b))) == 0 {
		if emptyOK {
			return nil
		}
		return badRequest("empty request body; want JSON")
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("bad JSON: %v", err)
	}
	if dec.More() {
		return badRequest("bad JSON: more than one value")
	}
	if _, err := dec.Token(); err != io.EOF {
		return badRequest("bad JSON: data after the value")
	}
	return nil
}
