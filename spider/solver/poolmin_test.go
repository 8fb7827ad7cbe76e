package solver

// poolMin is the least number of pool deals winnable.txt holds per variant,
// by suit count (docs/solver.md, "The winnable pool").
var poolMin = map[int]int{1: 2000, 2: 2000, 4: 2000}
