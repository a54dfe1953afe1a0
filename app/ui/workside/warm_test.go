package workside

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"eval752/app/demo"
)

// TestWarmSample: every JSONL entry of the demo bundle keeps its first
// WarmLines lines (or all, when it has fewer) byte for byte, every other
// entry is unchanged, and all are files of one folder.
func TestWarmSample(t *testing.T) {
	var zb bytes.Buffer
	if err := demo.Build(&zb); err != nil {
		t.Fatal(err)
	}
	files, err := demo.Files()
	if err != nil {
		t.Fatal(err)
	}
	in, err := WarmSample(zb.Bytes(), WarmLines)
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != len(files) {
		t.Fatalf("%d inputs, the bundle has %d entries", len(in), len(files))
	}
	cut := 0
	for _, x := range in {
		name, ok := strings.CutPrefix(x.Name, "warm-up/")
		if !ok || !x.InFolder {
			t.Errorf("%s: not a file of the warm-up folder", x.Name)
		}
		got, _ := io.ReadAll(io.NewSectionReader(x.R, 0, x.Size))
		want := files[name]
		if strings.HasSuffix(name, ".jsonl") {
			lines := strings.SplitAfter(string(want), "\n")
			if len(lines) > WarmLines {
				lines = lines[:WarmLines]
				cut++
			}
			want = []byte(strings.Join(lines, ""))
		}
		if !bytes.Equal(got, want) || x.Size != int64(len(want)) {
			t.Errorf("%s: %d bytes (size %d), want %d", name, len(got), x.Size, len(want))
		}
	}
	if cut == 0 {
		t.Error("no JSONL entry was cut: the sample is the bundle")
	}
	if _, err := WarmSample([]byte("not a zip"), WarmLines); err == nil {
		t.Error("a non-zip gave no error")
	}
}

// TestWarmUpStops: the warm-up runs to the end when nothing interrupts it,
// and stops at the first pause that says so (a job came), reporting it.
func TestWarmUpStops(t *testing.T) {
	var zb bytes.Buffer
	if err := demo.Build(&zb); err != nil {
		t.Fatal(err)
	}
	in, err := WarmSample(zb.Bytes(), WarmLines)
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	if !WarmUp(in, func() bool { steps++; return true }) {
		t.Fatal("an uninterrupted warm-up did not run to the end")
	}
	for _, stopAt := range []int{1, steps / 2, steps} {
		in, _ := WarmSample(zb.Bytes(), WarmLines)
		n := 0
		if WarmUp(in, func() bool { n++; return n < stopAt }) {
			t.Errorf("stop at pause %d of %d: the warm-up says it ran to the end", stopAt, steps)
		}
		if n != stopAt {
			t.Errorf("stop at pause %d of %d: %d pauses, want the warm-up to stop at once", stopAt, steps, n)
		}
	}
}
