package workside

import (
	"strings"
	"testing"

	"eval752/app/dataset"
)

func TestTooLarge(t *testing.T) {
	e := dataset.Estimate{Bytes: 5_200_000_000, Parts: []dataset.EstimatePart{
		{Path: "exp/items.jsonl", Size: 200_000_000, PerByte: 25},
		{Path: "exp/results.jsonl", Size: 8_000_000, PerByte: 25},
	}}
	if msg := TooLarge(e, 6<<30, []string{"exp/items.jsonl"}); msg != "" {
		t.Errorf("within the limit: %q", msg)
	}
	// the page's fixed cost counts: an estimate just under the limit is
	// refused when the overhead takes it over
	if msg := TooLarge(dataset.Estimate{Bytes: 3<<30 - 1<<20}, 3<<30, []string{"a"}); msg == "" {
		t.Error("estimate + PageOverhead over the limit, not refused")
	}
	msg := TooLarge(e, 3<<30, []string{"exp/items.jsonl", "exp/results.jsonl"})
	for _, want := range []string{
		// 5.2e9 + dataset.PageOverhead (320 MiB = 335,544,320) = 5.54e9;
		// 3 GiB = 3.22e9 bytes
		"needs about 5.5 GB", "can hold about 3.2 GB",
		"exp/items.jsonl: 200.0 MB × 25",
		"eval752 results eval752-results.zip exp", // one folder: named as the CLI reads it
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	msg = TooLarge(e, 1e9, []string{"a b.jsonl", "run"})
	if !strings.HasSuffix(msg, "eval752-results.zip 'a b.jsonl' run") {
		t.Errorf("command not quoted: %q", msg)
	}
}

// A streamed TREC pair is refused or not by the streaming estimate, and
// the message names its per-byte figure.
func TestTooLargeStreamedTREC(t *testing.T) {
	// gen-trec-bench -queries 30000: 27,944,700 bytes of qrels, one run of
	// 1,035,684,000; streaming estimate 2,657,603,346 (dataset's
	// TestEstimateStreamedTREC) + PageOverhead 335,544,320 =
	// 2,993,147,666 < 3 GiB: loaded. The in-memory budget would have asked
	// (27,944,700 + 1,035,684,000) × 13 + 335,544,320 = 14.16e9.
	ins := []dataset.Input{{Name: "qrels", Size: 27_944_700}, {Name: "run", Size: 1_035_684_000}}
	e := dataset.EstimateStreamedTREC(ins, "qrels")
	if msg := TooLarge(e, DefaultPageLimit, []string{"qrels", "run"}); msg != "" {
		t.Errorf("the 1 GB pair refused: %q", msg)
	}
	// four times the queries (111,778,800 bytes of qrels): 100,663,296 +
	// 111,778,800 × 61 × 1.5 = 10,328,760,996 + 335,544,320 = 10.7e9
	ins[0].Size *= 4
	msg := TooLarge(dataset.EstimateStreamedTREC(ins, "qrels"), DefaultPageLimit, []string{"qrels", "run"})
	for _, want := range []string{"needs about 10.7 GB", "can hold about 3.2 GB", "qrels: 111.8 MB × 91.5", "run: 1.0 GB × 0", "eval752-results.zip qrels run"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
}

// HeapLimit: the estimate, clamped to [MinHeapLimit, limit].
func TestHeapLimit(t *testing.T) {
	for _, c := range []struct{ est, limit, want int64 }{
		{1 << 20, 3 << 30, 256 << 20},   // a small input: the floor
		{1 << 30, 3 << 30, 1 << 30},     // the estimate itself
		{5 << 30, 3 << 30, 3 << 30},     // never over the page's limit
		{100 << 20, 64 << 20, 64 << 20}, // a limit under the floor wins
		{1 << 30, 0, 1 << 30},           // no limit
	} {
		if got := HeapLimit(dataset.Estimate{Bytes: c.est}, c.limit); got != c.want {
			t.Errorf("HeapLimit(%d, %d) = %d, want %d", c.est, c.limit, got, c.want)
		}
	}
}
