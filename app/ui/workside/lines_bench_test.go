package workside

import (
	"archive/zip"
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/report"
	"eval752/app/ui/wire"
)

// BenchmarkLineWindow: the item browser's raw-record read of a line near
// the end of a 100 MB JSONL (eval752 items of ≈ 340 bytes a line, the line
// size of /work/sets/items-1m; written to a temporary file, read through
// os.File as the page reads a File), by the old scan (ReadLines) and from
// the record's offset (ReadLinesAt), plain and as a deflated bundle entry;
// "lookup" is the worker's OffsetOf over one item per line. Reports
// read-MB: the bytes read (plain) or decompressed (zip) per window.
func BenchmarkLineWindow(b *testing.B) {
	dir := b.TempDir()
	plain := filepath.Join(dir, "items.jsonl")
	bundle := filepath.Join(dir, "b.eval752.zip")
	f, err := os.Create(plain)
	if err != nil {
		b.Fatal(err)
	}
	zf, err := os.Create(bundle)
	if err != nil {
		b.Fatal(err)
	}
	zw := zip.NewWriter(zf)
	ze, _ := zw.Create("sections/items.jsonl")
	bw := bufio.NewWriter(f)
	var starts []int64
	var size int64
	text := strings.Repeat("mitiquisa mardortolsa dormarlen ", 6)
	for size < 100<<20 {
		line := fmt.Sprintf(`{"answer":"senmineru kasati","id":"it-%07d","inputs":{"text":%q},"meta":{"difficulty":"easy","section":"s00","source":"synthetic","split":"dev"},"type":"freeform"}`+"\n", len(starts), text)
		starts = append(starts, size)
		size += int64(len(line))
		bw.WriteString(line)
		ze.Write([]byte(line))
	}
	if err := bw.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	zf.Close()
	open := func(name string) dataset.Input {
		f, err := os.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { f.Close() })
		st, _ := f.Stat()
		return dataset.Input{Name: filepath.Base(name), R: f, Size: st.Size()}
	}
	inputs := []dataset.Input{open(plain), open(bundle)}
	n := len(starts) - 10 // near the end
	off := starts[n-1]
	for _, c := range []struct{ name, path string }{{"plain", "items.jsonl"}, {"zip", "b.eval752.zip!sections/items.jsonl"}} {
		req := wire.LinesRequest{Path: c.path, Line: n}
		want := ReadLines(inputs, req)
		if len(want.Lines) != 1 || !strings.Contains(want.Lines[0], fmt.Sprintf(`"it-%07d"`, n-1)) {
			b.Fatalf("%s: scan window %+v", c.name, want)
		}
		b.Run(c.name+"/scan", func(b *testing.B) {
			for b.Loop() {
				ReadLines(inputs, req)
			}
			b.ReportMetric(float64(starts[n])/1e6, "read-MB")
		})
		b.Run(c.name+"/offset", func(b *testing.B) {
			if _, ok := readAt(inputs, req, off); !ok {
				b.Fatal("the offset read fell back to the scan")
			}
			for b.Loop() {
				ReadLinesAt(inputs, req, off)
			}
			read := float64(starts[n]-off+min(off, backRead)) / 1e6
			if c.name == "zip" {
				read = float64(starts[n]) / 1e6
			}
			b.ReportMetric(read, "read-MB")
		})
	}
	b.Run("lookup", func(b *testing.B) {
		items := make([]report.ItemDetail, len(starts))
		for i := range items {
			items[i] = report.ItemDetail{ID: fmt.Sprintf("it-%07d", i), Path: "items.jsonl", Line: i + 1, Off: starts[i]}
		}
		for b.Loop() {
			if OffsetOf(items, "items.jsonl", n) != off {
				b.Fatal("OffsetOf: wrong offset")
			}
		}
		b.ReportMetric(float64(len(items)), "items")
	})
}
