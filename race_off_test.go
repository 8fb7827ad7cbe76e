//go:build !race

package cardtable_test

const raceEnabled = false
