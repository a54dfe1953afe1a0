package workside

import (
	"fmt"
	"strings"

	"eval752/app/dataset"
)

// DefaultPageLimit is the estimated memory (dataset.EstimateInputs) above
// which the page's worker refuses an input instead of loading it: its Go
// heap lives in one wasm32 memory of at most 4 GiB, and a load over about 3
// GiB of estimate ends in "out of memory" half way (docs/formats.md "Memory
// budget").
const DefaultPageLimit int64 = 3 << 30

// TooLarge returns the message for inputs whose estimate e is over limit
// (names: the inputs as the page got them): what the input needs, what
// the page can hold, the largest files, and the command that runs the same
// pipeline natively. "" when e is within limit.
//
// The need is the estimate (the input's sizes × the budget per byte of
// their formats) plus dataset.PageOverhead, the fixed cost of a load in the
// page.
func TooLarge(e dataset.Estimate, limit int64, names []string) string {
	need := e.Bytes + dataset.PageOverhead
	if limit <= 0 || need <= limit || len(names) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "this input is too large for the browser: it needs about %s of memory, and the page can hold about %s", human(need), human(limit))
	var big []string
	for i, p := range e.Parts {
		if i == 3 {
			big = append(big, fmt.Sprintf("%d more", len(e.Parts)-3))
			break
		}
		big = append(big, fmt.Sprintf("%s: %s × %g", p.Path, human(p.Size), p.PerByte))
	}
	if len(big) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(big, "; "))
	}
	// the files of one picked folder: name the folder, as the CLI reads it
	args := make([]string, len(names))
	folder, _, _ := strings.Cut(names[0], "/")
	for i, n := range names {
		args[i] = shellQuote(n)
		if top, _, in := strings.Cut(n, "/"); !in || top != folder {
			folder = ""
		}
	}
	if folder != "" {
		args = []string{shellQuote(folder)}
	}
	fmt.Fprintf(&b, ". Nothing was loaded. Run it on the command line instead, where memory is not capped: eval752 results eval752-results.zip %s", strings.Join(args, " "))
	return b.String()
}

// human writes n bytes as KB / MB / GB (decimal, as file sizes are shown).
func human(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}

// shellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and ./_-+:@,=.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789./_-+:@,=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// MinHeapLimit is the least memory limit HeapLimit gives the collector: the
// demo and other small inputs keep the collector's default pace.
const MinHeapLimit int64 = 256 << 20

// HeapLimit is the soft memory limit (runtime/debug.SetMemoryLimit) the
// worker sets for a load of estimate e under the page's limit: the
// estimate (the input's documented budget), at least MinHeapLimit, at
// most limit. The collector then works harder as the heap nears what the
// input should need rather than letting garbage double it, so a load that
// keeps its budget also peaks near it.
func HeapLimit(e dataset.Estimate, limit int64) int64 {
	l := max(e.Bytes, MinHeapLimit)
	if limit > 0 {
		l = min(l, limit)
	}
	return l
}
