package dataset

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A whole-file JSON document's values are located at their lines in time
// linear in the file: before, every value's line was counted from the start
// of the file (lineCol per value), so a one-line manifest.json of 160,000
// keys (2.6 MB) took over 120 s and a run_config.json array of 160,000
// numbers 42 s (`eval752 validate`). Here 60,000 keys, 40,000 array
// elements and a pretty-printed array of 40,000 records; each took
// 10–60 s before, well under a second now. The bound is on the process's CPU
// time (user + sys, getrusage), not wall time, so other work on a shared
// machine does not make it fail; it leaves room for -race (≈ 10× the CPU).
func TestJSONDocumentLocatedInLinearTime(t *testing.T) {
	var keys, arr, recs strings.Builder
	keys.WriteString(`{"format_version":1,"x":{`)
	arr.WriteString(`{"runs":[`)
	recs.WriteString("[\n")
	for i := 0; i < 60000; i++ {
		if i > 0 {
			keys.WriteByte(',')
		}
		keys.WriteString(`"k` + strconv.Itoa(i) + `":1`)
	}
	for i := 0; i < 40000; i++ {
		if i > 0 {
			arr.WriteByte(',')
			recs.WriteString(",\n")
		}
		arr.WriteByte('1')
		recs.WriteString(`{"run":"r","item_id":"q` + strconv.Itoa(i) + `","latency_ms":1}`)
	}
	keys.WriteString("}}\n")
	arr.WriteString("]}\n")
	recs.WriteString("\n]\n")
	for _, c := range []struct{ name, body string }{
		{"manifest.json", keys.String()},
		{"run_config.json", arr.String()},
		{"results.json", recs.String()},
	} {
		b := []byte(c.body)
		start := cpuTime(t)
		ds, err := Load(context.Background(), []Input{{Name: c.name, R: bytes.NewReader(b), Size: int64(len(b))}}, Options{})
		if err != nil || ds == nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		d := cpuTime(t) - start
		t.Logf("%s (%d bytes): %v of CPU", c.name, len(b), d)
		if d > 8*time.Second {
			t.Errorf("%s (%d bytes) took %v of CPU", c.name, len(b), d)
		}
	}
}

// lineIndex.lineCol gives what lineCol gives, at every offset (and past
// either end), for files with and without line breaks.
func TestLineIndexMatchesLineCol(t *testing.T) {
	for _, s := range []string{"", "\n", "abc", "a\nb", "a\n\nbc\n", "\n\nx\ny\n\n", "{\n  \"a\": 1,\n  \"b\": [1,\n2]\n}\n"} {
		b := []byte(s)
		x := newLineIndex(b)
		for off := -2; off <= len(b)+2; off++ {
			l1, c1 := lineCol(b, off)
			l2, c2 := x.lineCol(len(b), off)
			if l1 != l2 || c1 != c2 {
				t.Errorf("%q at %d: index %d:%d, lineCol %d:%d", s, off, l2, c2, l1, c1)
			}
		}
	}
}

// cpuTime is the user + sys CPU time this process has used.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
