package storetest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"cardtable/internal/dbcopy"
	"cardtable/internal/storetest"
)

// acmeBounds are the bounds and sentinels of the certificate cache, the
// same for every store.
func acmeBounds(storetest.Backend) (entries, size, key int, full, tooBig error) {
	return dbcopy.ACMEMaxEntries, dbcopy.ACMEMaxBytes, dbcopy.ACMEMaxKey, dbcopy.ErrACMEFull, dbcopy.ErrACMETooBig
}

// acmeKeys are the certificate cache's keys, in byte order.
func acmeKeys(tb testing.TB, s storetest.Store) []string {
	tb.Helper()
	var keys []string
	if err := s.Export(context.Background(), "acme_cache", func(row any) error {
		keys = append(keys, row.(dbcopy.ACMEEntry).Key)
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	return keys
}

// TestACMECache: an entry missing is reported as missing, not as an
// error; an entry stored is read back byte for byte (binary data, every
// byte value), replaced by a later one, and deleted; deleting a missing
// entry is no error.
func TestACMECache(t *testing.T) {
	each(t, func(t *testing.T, _ storetest.Backend, _ string, s storetest.Store) {
		ctx := context.Background()
		if data, found, err := s.ACMEGet(ctx, "acme_account+key"); err != nil || found || data != nil {
			t.Fatalf("a missing entry: %q %v %v", data, found, err)
		}
		all := make([]byte, 256)
		for i := range all {
			all[i] = byte(i)
		}
		for _, v := range [][]byte{all, []byte("-----BEGIN EC PRIVATE KEY-----\n..."), {}} {
			if err := s.ACMEPut(ctx, "cards.example.org", v); err != nil {
				t.Fatal(err)
			}
			if data, found, err := s.ACMEGet(ctx, "cards.example.org"); err != nil || !found || !bytes.Equal(data, v) {
				t.Fatalf("read back %q %v %v, want %q", data, found, err, v)
			}
		}
		if err := s.ACMEPut(ctx, "tok+http-01", []byte("tok.thumb")); err != nil {
			t.Fatal(err)
		}
		if keys := acmeKeys(t, s); strings.Join(keys, " ") != "cards.example.org tok+http-01" {
			t.Fatalf("entries %q", keys)
		}
		for range 2 { // the second: already gone
			if err := s.ACMEDelete(ctx, "tok+http-01"); err != nil {
				t.Fatal(err)
			}
		}
		if _, found, err := s.ACMEGet(ctx, "tok+http-01"); err != nil || found {
			t.Fatalf("a deleted entry: %v %v", found, err)
		}
		if keys := acmeKeys(t, s); len(keys) != 1 {
			t.Fatalf("entries after the delete: %q", keys)
		}
	})
}

// TestACMECacheBounds: a key or data past its bound, or a key that is no
// name, is refused with an error naming the bound, and nothing is stored;
// at the bound they are stored. A full cache refuses a new key but still
// replaces an entry it has; the challenges' entries a day old are deleted
// to make room, other entries never.
func TestACMECacheBounds(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, _ string, s storetest.Store) {
		ctx := context.Background()
		maxEntries, maxSize, maxKey, errFull, errTooBig := acmeBounds(b)
		for _, c := range []struct {
			key  string
			size int
			want error
		}{
			{strings.Repeat("k", maxKey+1), 1, errTooBig},
			{"big", maxSize + 1, errTooBig},
			{"", 1, nil},
			{"a\x00b", 1, nil},
			{"\xff", 1, nil},
		} {
			err := s.ACMEPut(ctx, c.key, make([]byte, c.size))
			if err == nil || (c.want != nil && !errors.Is(err, c.want)) || !strings.Contains(err.Error(), "ACME certificate cache") {
				t.Errorf("key %.20q, %d bytes: %v", c.key, c.size, err)
			}
		}
		if keys := acmeKeys(t, s); len(keys) != 0 {
			t.Fatalf("refused entries stored: %q", keys)
		}
		if err := s.ACMEPut(ctx, strings.Repeat("k", maxKey), make([]byte, maxSize)); err != nil {
			t.Fatalf("at the bounds: %v", err)
		}
		if err := s.ACMEDelete(ctx, strings.Repeat("k", maxKey)); err != nil {
			t.Fatal(err)
		}

		// Full of new entries, none to prune: an entry it has is still
		// replaced.
		old, now := time.Now().Add(-25*time.Hour).UnixMilli(), time.Now().UnixMilli()
		var rows []any
		for i := range maxEntries {
			rows = append(rows, dbcopy.ACMEEntry{Key: fmt.Sprintf("d%03d.example", i), Data: []byte("c"), Updated: now})
		}
		if err := s.Import(ctx, "acme_cache", rows); err != nil {
			t.Fatal(err)
		}
		if err := s.ACMEPut(ctx, "d010.example", []byte("renewed")); err != nil {
			t.Fatalf("replacing an entry of a full cache: %v", err)
		}
		if err := s.ACMEPut(ctx, "more.example", []byte("c")); !errors.Is(err, errFull) {
			t.Fatalf("a new key in a cache full of new entries: %v", err)
		}

		// Full: one stale challenge, one stale certificate, the rest new.
		for _, k := range []string{"d000.example", "d001.example", "d002.example"} {
			if err := s.ACMEDelete(ctx, k); err != nil {
				t.Fatal(err)
			}
		}
		rows = []any{dbcopy.ACMEEntry{Key: "stale+http-01", Data: []byte("t"), Updated: old},
			dbcopy.ACMEEntry{Key: "stale.example", Data: []byte("c"), Updated: old},
			dbcopy.ACMEEntry{Key: "fresh+token", Data: []byte("t"), Updated: now}}
		if err := s.Import(ctx, "acme_cache", rows); err != nil {
			t.Fatal(err)
		}
		if err := s.ACMEPut(ctx, "new.example", []byte("c")); err != nil {
			t.Fatalf("a full cache with a stale challenge: %v", err)
		}
		if _, found, _ := s.ACMEGet(ctx, "stale+http-01"); found {
			t.Fatal("the stale challenge's entry was kept")
		}
		for _, k := range []string{"stale.example", "fresh+token", "new.example"} {
			if _, found, err := s.ACMEGet(ctx, k); !found || err != nil {
				t.Fatalf("%s: %v %v", k, found, err)
			}
		}
		err := s.ACMEPut(ctx, "more.example", []byte("c"))
		if !errors.Is(err, errFull) || !strings.Contains(err.Error(), fmt.Sprint(maxEntries)) {
			t.Fatalf("a new key in a full cache: %v", err)
		}
		if _, found, _ := s.ACMEGet(ctx, "more.example"); found {
			t.Fatal("the refused entry was stored")
		}
		if n := len(acmeKeys(t, s)); n != maxEntries {
			t.Fatalf("%d entries, want %d", n, maxEntries)
		}
		if data, _, _ := s.ACMEGet(ctx, "d010.example"); string(data) != "renewed" {
			t.Fatalf("the replaced entry: %q", data)
		}
	})
}

// TestACMECacheTwoServers: two servers adding entries at once to a cache
// one short of full: exactly one is stored, the other refused as full,
// whichever commits first.
func TestACMECacheTwoServers(t *testing.T) {
	for _, b := range storetest.Backends() {
		if !b.Shared {
			continue
		}
		t.Run(b.Name, func(t *testing.T) {
			ctx := context.Background()
			db := b.New(t)
			servers := []storetest.Store{storetest.OpenTB(t, db), storetest.OpenTB(t, db)}
			maxEntries, _, _, errFull, _ := acmeBounds(b)
			var rows []any
			for i := range maxEntries - 1 {
				rows = append(rows, dbcopy.ACMEEntry{Key: fmt.Sprintf("d%03d.example", i), Data: []byte("c"), Updated: time.Now().UnixMilli()})
			}
			if err := servers[0].Import(ctx, "acme_cache", rows); err != nil {
				t.Fatal(err)
			}
			for round := range 10 {
				var wg sync.WaitGroup
				errs := make([]error, 2)
				for i, s := range servers {
					wg.Go(func() { errs[i] = s.ACMEPut(ctx, fmt.Sprintf("r%d-%d.example", round, i), []byte("c")) })
				}
				wg.Wait()
				if (errs[0] == nil) == (errs[1] == nil) || !errors.Is(errors.Join(errs...), errFull) {
					t.Fatalf("round %d: %v", round, errs)
				}
				if n := len(acmeKeys(t, servers[0])); n != maxEntries {
					t.Fatalf("round %d: %d entries, want %d", round, n, maxEntries)
				}
				for i := range 2 {
					if err := servers[0].ACMEDelete(ctx, fmt.Sprintf("r%d-%d.example", round, i)); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}
