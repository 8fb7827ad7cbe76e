package arlweb

import (
	"crypto/sha256"
	"fmt"
	"net/http"
	"strings"

	"cardtable/internal/table"
	"cardtable/internal/web"
)

// A table code is six characters a friend can read out and type: digits
// and capitals without the look-alikes 0, O, 1, I and L. It is a hash of
// the table's id, so it needs no storage, survives a restart and names
// the same table everywhere; a code is looked up among the live tables,
// which the lobby lists to everyone already, so guessing codes finds
// nothing the lobby does not show. (31^6 codes: two live tables sharing
// one is so unlikely that the lookup refuses rather than picks.)
const (
	codeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
	codeLen      = 6
)

// tableCode is table id's code.
func tableCode(id string) string {
	sum := sha256.Sum256([]byte("arlington table code\x00" + id))
	var b strings.Builder
	for i := range codeLen {
		v := uint16(sum[2*i])<<8 | uint16(sum[2*i+1])
		b.WriteByte(codeAlphabet[int(v)%len(codeAlphabet)])
	}
	return b.String()
}

// normalCode is a code as typed (any case, spaces or dashes between) in
// its written form, or "" if it cannot be one.
func normalCode(s string) string {
	s = strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(s))
	if len(s) != codeLen {
		return ""
	}
	for _, r := range s {
		if !strings.ContainsRune(codeAlphabet, r) {
			return ""
		}
	}
	return s
}

// byCode answers GET /api/arlington/code/{code}: the table with that code
// and its link.
func (h *Handlers) byCode(w http.ResponseWriter, r *http.Request) error {
	code := normalCode(r.PathValue("code"))
	if code == "" {
		return fmt.Errorf("%w: a table code is %d letters and digits, never 0, O, 1, I or L", web.ErrBadRequest, codeLen)
	}
	var found *table.Summary
	for _, t := range h.all(r, "") {
		if tableCode(t.ID) == code {
			if found != nil {
				return web.Errorf(web.ErrConflict, "code %s names two tables: use the link", code)
			}
			found = &t.Summary
		}
	}
	if found == nil {
		return web.Errorf(web.ErrNotFound, "no table has the code %s: check it with whoever gave it, or ask for the table's link", code)
	}
	if t, err := h.hub.Table(found.ID); err == nil {
		web.WriteJSON(w, http.StatusOK, h.summary(t))
		return nil
	}
	// Another server's table, as its lobby listed it.
	web.WriteJSON(w, http.StatusOK, created{*found, link(found.ID), code})
	return nil
}
