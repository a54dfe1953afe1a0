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
	msg := TooLarge(e, 3<<30, []string{"exp/items.jsonl", "exp/results.jsonl"})
	for _, want := range []string{
		"needs about 5.2 GB", "can hold about 3.2 GB", // 3 GiB = 3.22e9 bytes
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
