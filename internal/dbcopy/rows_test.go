package dbcopy

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestColumnsMatchRows: every table has a column for each field of its
// row, Scan and Values agree, and a row of another table is refused.
func TestColumnsMatchRows(t *testing.T) {
	for _, table := range Tables {
		typ, ok := rowTypes[table]
		if !ok || typ.NumField() != len(Columns[table]) {
			t.Fatalf("%s: %d columns for %v", table, len(Columns[table]), typ)
		}
		// A row read field by field gives those values back.
		want := reflect.New(typ).Elem()
		for i := range want.NumField() {
			f := want.Field(i)
			switch f.Kind() {
			case reflect.String:
				f.SetString("s" + Columns[table][i])
			case reflect.Int, reflect.Int64:
				f.SetInt(int64(i + 1))
			case reflect.Bool:
				f.SetBool(true)
			case reflect.Float64:
				f.SetFloat(float64(i) + 0.5)
			}
		}
		row, err := Scan(table, func(dest ...any) error {
			for i, d := range dest {
				reflect.ValueOf(d).Elem().Set(want.Field(i))
			}
			return nil
		})
		if err != nil || !reflect.DeepEqual(row, want.Interface()) {
			t.Fatalf("%s: scanned %#v, %v", table, row, err)
		}
		vals, err := Values(table, row)
		if err != nil || len(vals) != len(Columns[table]) || vals[0] != want.Field(0).Interface() {
			t.Fatalf("%s: values %v, %v", table, vals, err)
		}
		if q := Insert(table, func(int) string { return "?" }); strings.Count(q, "?") != len(vals) {
			t.Fatalf("%s: %s", table, q)
		}
	}
	if _, err := Values("games", Save{}); err == nil {
		t.Fatal("a save accepted as a game")
	}
	bad := errors.New("read failed")
	if _, err := Scan("games", func(...any) error { return bad }); !errors.Is(err, bad) {
		t.Fatalf("scan error: %v", err)
	}
}
