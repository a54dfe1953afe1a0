package bundle

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"testing"
)

// The hostile archives below are made at test time: archive/zip for the
// well-formed parts, hand-written bytes (patched central directory fields)
// for the lies; nothing large is stored in git.

// Names are compared as paths before the duplicate check: "sections//a",
// "./sections/a" and "sections/./a" are "sections/a" (before, all four were
// read, with no finding).
func TestDuplicateOfCleanedName(t *testing.T) {
	b := build(t,
		entry{name: "sections/a.jsonl", body: []byte("first")},
		entry{name: "sections//a.jsonl", body: []byte("second")},
		entry{name: "./sections/a.jsonl", body: []byte("third")},
		entry{name: "sections/./a.jsonl", body: []byte("fourth")},
		entry{name: "sections/b.jsonl", body: []byte("other")},
	)
	a, err := Open("b.zip", bytes.NewReader(b), int64(len(b)), testLimits)
	if err != nil {
		t.Fatal(err)
	}
	if n := codeSet(a.Findings)["zip.duplicate-entry"]; n != 3 {
		t.Errorf("%d zip.duplicate-entry findings, want 3: %v", n, a.Findings)
	}
	sums := readAll(a)
	if len(sums) != 2 || sums["sections/a.jsonl"] == "" || sums["sections/b.jsonl"] == "" {
		t.Errorf("read %v, want only the first sections/a.jsonl and sections/b.jsonl", sums)
	}
}

// deflated is the raw deflate stream of data, as a zip entry stores it.
func deflated(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// rawZip writes one entry through CreateRaw: the header's sizes and CRC are
// stored as given, whatever the data is.
func rawZip(t *testing.T, h *zip.FileHeader, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	fw, err := w.CreateRaw(h)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The ratio guard counts the compressed bytes the decompressor consumed, not
// the size the headers declare. The entry below inflates 8 MiB of zeros from
// an ≈ 8 KiB kernel but declares 1 MiB compressed: its declared ratio (8) and
// the old streaming check (bytes out / declared size) both pass it, and it
// was read to the end. Now reading stops just past 1 MiB with zip.ratio.
func TestRatioOnConsumedBytes(t *testing.T) {
	plain := make([]byte, 8<<20)
	kernel := deflated(t, plain)
	b := rawZip(t, &zip.FileHeader{Name: "sections/a.jsonl", Method: zip.Deflate,
		CRC32: crc32.ChecksumIEEE(plain), CompressedSize64: 1 << 20, UncompressedSize64: uint64(len(plain))}, kernel)
	lim := Limits{MaxEntries: 10, MaxEntryBytes: 64 << 20, MaxTotalBytes: 64 << 20, MaxRatio: 200}
	a, err := Open("b.zip", bytes.NewReader(b), int64(len(b)), lim)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Findings) != 0 || !a.Entries[0].Safe {
		t.Fatalf("the declared sizes should pass the checks before reading: %v", a.Findings)
	}
	r, err := a.OpenEntry(a.Entries[0])
	if err != nil {
		t.Fatal(err)
	}
	r.Drain()
	if codeSet(a.Findings)["zip.ratio"] != 1 || r.Complete() {
		t.Errorf("findings %v, complete %v; want one zip.ratio and the entry stopped", a.Findings, r.Complete())
	}
	if r.Size() > 2<<20 {
		t.Errorf("%d bytes inflated before the guard stopped it, want about 1 MiB", r.Size())
	}
	// the same kernel with honest headers is caught before reading, as before
	b = rawZip(t, &zip.FileHeader{Name: "sections/a.jsonl", Method: zip.Deflate,
		CRC32: crc32.ChecksumIEEE(plain), CompressedSize64: uint64(len(kernel)), UncompressedSize64: uint64(len(plain))}, kernel)
	a, _ = Open("b.zip", bytes.NewReader(b), int64(len(b)), lim)
	if codeSet(a.Findings)["zip.ratio"] != 1 || a.Entries[0].Safe {
		t.Errorf("honest bomb: %v", a.Findings)
	}
}

// eocd locates the end of central directory record of a zip without a
// comment, returning the directory's offset and size.
func eocd(b []byte) (end, dirOff, dirSize int) {
	end = len(b) - 22
	return end, int(binary.LittleEndian.Uint32(b[end+16:])), int(binary.LittleEndian.Uint32(b[end+12:]))
}

// fullOverlap is the "full overlap" form of Fifield's non-recursive zip
// bomb, by hand: one local header and one compressed kernel, and n central
// directory entries (sections/0.jsonl, sections/1.jsonl…) that all point at
// it, so one kernel is inflated n times.
func fullOverlap(t *testing.T, n int, body []byte) []byte {
	t.Helper()
	one := build(t, entry{name: "sections/0.jsonl", body: body})
	end, dirOff, dirSize := eocd(one)
	central := one[dirOff : dirOff+dirSize]
	var out bytes.Buffer
	out.Write(one[:dirOff])
	for i := 0; i < n; i++ {
		c := bytes.Clone(central)
		nameAt := 46 + len("sections/")
		c[nameAt] = byte('0' + i%10)
		out.Write(c)
	}
	e := bytes.Clone(one[end:])
	binary.LittleEndian.PutUint16(e[8:], uint16(n))
	binary.LittleEndian.PutUint16(e[10:], uint16(n))
	binary.LittleEndian.PutUint32(e[12:], uint32(n*len(central)))
	out.Write(e)
	return out.Bytes()
}

// Entries that share bytes are found from the central directory before
// anything is inflated: one zip.overlap error, none of them read. Before,
// every entry inflated the shared kernel, with no finding.
func TestOverlapFull(t *testing.T) {
	b := fullOverlap(t, 5, []byte(`{"id":"x"}`+"\n"))
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil || len(zr.File) != 5 {
		t.Fatalf("the hand-made archive must be a zip archive/zip reads: %v", err)
	}
	a, err := Open("b.zip", bytes.NewReader(b), int64(len(b)), testLimits)
	if err != nil {
		t.Fatal(err)
	}
	if codeSet(a.Findings)["zip.overlap"] != 1 {
		t.Errorf("findings %v, want one zip.overlap", a.Findings)
	}
	if sums := readAll(a); len(sums) != 0 {
		t.Errorf("overlapping entries were read: %v", sums)
	}
}

// The "quoted" form: an entry whose declared compressed size runs over the
// next entry's local header. Both are unsafe; a third, separate entry is
// read.
func TestOverlapIntoNextEntry(t *testing.T) {
	b := build(t,
		entry{name: "sections/a.jsonl", body: []byte(`{"id":"a"}`)},
		entry{name: "sections/b.jsonl", body: []byte(`{"id":"b"}`)},
		entry{name: "sections/c.jsonl", body: []byte(`{"id":"c"}`)},
	)
	_, dirOff, _ := eocd(b)
	// the first central header's compressed size: grow it by 40 bytes,
	// into the local header of sections/b.jsonl
	cs := binary.LittleEndian.Uint32(b[dirOff+20:])
	binary.LittleEndian.PutUint32(b[dirOff+20:], cs+40)
	a, err := Open("b.zip", bytes.NewReader(b), int64(len(b)), testLimits)
	if err != nil {
		t.Fatal(err)
	}
	if codeSet(a.Findings)["zip.overlap"] != 1 {
		t.Fatalf("findings %v, want one zip.overlap", a.Findings)
	}
	sums := readAll(a)
	if _, ok := sums["sections/c.jsonl"]; !ok || len(sums) != 1 {
		t.Errorf("read %v, want only sections/c.jsonl", sums)
	}
}

// headerOffsets reads the offsets of archives archive/zip reads: data
// descriptors, data in front of the archive (a self-extractor's stub), and
// zip64 (65,536 entries force the zip64 end record); no overlap is found in
// any of them, so the check cannot be silently off for these layouts.
func TestHeaderOffsetsOfWellFormedArchives(t *testing.T) {
	plain := build(t, entry{name: "sections/a.jsonl", body: []byte("a")}, entry{name: "assets/x.bin", body: make([]byte, 5000), store: true}, entry{name: "sections/", body: nil})
	prefixed := append([]byte("#!/bin/sh\nexit 0\n"), plain...)
	var z64 bytes.Buffer
	w := zip.NewWriter(&z64)
	for i := range 1 << 16 {
		if _, err := w.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("assets/%05d", i), Method: zip.Store}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	if binary.LittleEndian.Uint16(z64.Bytes()[z64.Len()-22+10:]) != 0xffff {
		t.Fatal("the 65,536-entry archive has no zip64 end record")
	}
	for name, b := range map[string][]byte{"plain": plain, "prefixed": prefixed, "zip64": z64.Bytes()} {
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		offs, ok := headerOffsets(bytes.NewReader(b), int64(len(b)), zr.File)
		if !ok {
			t.Errorf("%s: offsets not read", name)
			continue
		}
		for i, f := range zr.File {
			d, err := f.DataOffset()
			if err != nil || d != offs[i]+30+int64(len(f.Name)) {
				t.Errorf("%s: entry %s: local header at %d, data at %d (%v)", name, f.Name, offs[i], d, err)
				break
			}
		}
		entries := make([]*Entry, len(zr.File))
		for i, f := range zr.File {
			entries[i] = &Entry{Name: f.Name, File: f}
		}
		if p := overlaps(entries, offs); len(p) != 0 {
			t.Errorf("%s: %d overlaps reported in a well-formed archive", name, len(p))
		}
	}
}

// The lying-size and overlap archives read through the loader's path
// (OpenEntry, Drain) never inflate more than the guard allows.
func TestGuardsBoundInflation(t *testing.T) {
	b := fullOverlap(t, 10, make([]byte, 900<<10)) // 10 × 900 KiB from one kernel, each under the 1 MiB ratio floor
	a, _ := Open("b.zip", bytes.NewReader(b), int64(len(b)), testLimits)
	var total int64
	for _, e := range a.Entries {
		if r, err := a.OpenEntry(e); err == nil {
			n, _ := io.Copy(io.Discard, r)
			total += n
		}
	}
	if total != 0 || codeSet(a.Findings)["zip.overlap"] != 1 {
		t.Errorf("%d bytes inflated, findings %v; want 0 and one zip.overlap", total, a.Findings)
	}
}

// An entry stored with a method other than store or deflate (here 14, LZMA)
// is not read: zip.corrupt before any byte is inflated.
func TestUnknownMethod(t *testing.T) {
	b := rawZip(t, &zip.FileHeader{Name: "sections/a.jsonl", Method: 14, CompressedSize64: 3, UncompressedSize64: 3}, []byte("abc"))
	a, err := Open("b.zip", bytes.NewReader(b), int64(len(b)), testLimits)
	if err != nil {
		t.Fatal(err)
	}
	if codeSet(a.Findings)["zip.corrupt"] != 1 || a.Entries[0].Safe {
		t.Errorf("findings %v, safe %v", a.Findings, a.Entries[0].Safe)
	}
}
