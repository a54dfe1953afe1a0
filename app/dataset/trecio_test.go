package dataset

import (
	"testing"

	"eval752/app/jsonl"
	"eval752/app/trecio"
)

// TestTRECLineCapIsJSONL: trecio's Strict mode stands for jsonl.Lines's
// rules, so its default line cap (used when a caller passes 0) and the
// messages that print it must be jsonl's.
func TestTRECLineCapIsJSONL(t *testing.T) {
	if trecio.DefaultMaxLine != jsonl.DefaultMaxLine {
		t.Fatalf("trecio.DefaultMaxLine = %d, jsonl.DefaultMaxLine = %d", trecio.DefaultMaxLine, jsonl.DefaultMaxLine)
	}
}
