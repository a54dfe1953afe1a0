package trec

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestInputErrorOffset: a bad run line is located by line and byte offset,
// in memory and streaming (blocks of 16 bytes, so the query crosses
// blocks). The run's lines are 16, 16 and 14 bytes long with their '\n',
// so the bad third line starts at byte 32.
func TestInputErrorOffset(t *testing.T) {
	qrels := "q 0 a 1\n"
	run := "q Q0 a 1 0.9 tt\nq Q0 b 2 0.8 tt\nq Q0 c 3 x tt\n"
	o := DefaultOptions()
	o.QrelsName, o.RunName = "qrels", "run"
	_, err := EvaluateBytes([]byte(qrels), []byte(run), o)
	var ie *InputError
	if !errors.As(err, &ie) || ie.Line != 3 || ie.Offset != 32 || ie.Hint == "" {
		t.Fatalf("in memory: %#v; want line 3, offset 32, a hint", err)
	}
	dir := t.TempDir()
	qp, rp := filepath.Join(dir, "qrels"), filepath.Join(dir, "run")
	os.WriteFile(qp, []byte(qrels), 0o644)
	os.WriteFile(rp, []byte(run), 0o644)
	saved := runBlock
	defer func() { runBlock = saved }()
	runBlock = 16
	_, err = EvaluateFiles(context.Background(), qp, rp, o)
	if !errors.As(err, &ie) || ie.Line != 3 || ie.Offset != 32 {
		t.Fatalf("streaming: %#v; want line 3, offset 32", err)
	}
	// a bad qrels line: "q 0 a 1\n" is 8 bytes, the second line starts at 8
	_, err = EvaluateBytes([]byte("q 0 a 1\nq 0 b\n"), []byte(run), o)
	if !errors.As(err, &ie) || ie.File != "qrels" || ie.Line != 2 || ie.Offset != 8 {
		t.Fatalf("qrels: %#v; want qrels line 2, offset 8", err)
	}
}
