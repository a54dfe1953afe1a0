package engine

import (
	"os"
	"runtime/debug"

	"eval752/app/dataset"
)

// loadMemLimit sets a soft memory limit (runtime/debug.SetMemoryLimit) for
// a command that loads its inputs in memory (validate, and score, compare,
// audit, results through engine), unless GOMEMLIMIT is set, and returns
// what undoes it. The limit is max(448 MiB, 3 × the inputs' bytes): above
// what the records kept after loading need (docs/formats.md "Memory
// budget": at most ≈ 2.6 bytes per input byte, eval752 items of 110 bytes),
// so the collector is not made to run continuously, and low enough that the
// garbage of decoding (each line's generic tree and typed struct, dropped
// once the record is checked) is reclaimed before the heap doubles over
// the live set, as Go's default GOGC=100 lets it: `validate` on 1M eval752
// items of 110 bytes peaked at 1.11 GiB with a live heap of ≈ 0.4 GiB.
// The limit is soft: a larger live set grows past it (the collector then
// runs more often, never fails an allocation).
func loadMemLimit(inputs []dataset.Input) func() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	var total int64
	for _, in := range inputs {
		total += in.Size
	}
	prev := debug.SetMemoryLimit(max(448<<20, 3*total))
	return func() { debug.SetMemoryLimit(prev) }
}
