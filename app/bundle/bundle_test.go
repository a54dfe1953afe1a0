package bundle

import (
	"archive/zip"
	"bytes"
	"io"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"eval752/app/finding"
)

type entry struct {
	name  string
	body  []byte
	mode  fs.FileMode
	flags uint16
	store bool
}

// build writes a zip with archive/zip; entries may repeat names or carry
// hostile modes and flags (the writer does not check them).
func build(t *testing.T, es ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, e := range es {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.store {
			h.Method = zip.Store
		}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		h.Flags = e.flags
		fw, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(e.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var testLimits = Limits{MaxEntries: 100, MaxEntryBytes: 4 << 20, MaxTotalBytes: 8 << 20, MaxRatio: 200}

// readAll opens every safe entry to EOF, as the loader does.
func readAll(a *Archive) map[string]string {
	sums := map[string]string{}
	for _, e := range a.Entries {
		if !e.Safe || e.Dir {
			continue
		}
		r, err := a.OpenEntry(e)
		if err != nil {
			continue
		}
		if r.Drain() == nil && r.Complete() {
			sums[e.Name] = r.SHA256()
		}
	}
	return sums
}

func codeSet(fs finding.List) map[string]int {
	m := map[string]int{}
	for _, f := range fs {
		m[f.Code]++
	}
	return m
}

func TestHostileEntries(t *testing.T) {
	zeros := make([]byte, 2<<20)                                // 2 MiB of zeros deflate to ~2 KiB: ratio ≈ 1000 > 200
	big := bytes.Repeat([]byte("0123456789abcdef"), (5<<20)/16) // 5 MiB, incompressible enough? no: repeats; ratio checked separately
	cases := []struct {
		name     string
		entries  []entry
		lim      Limits
		want     string // the code expected
		unsafe   string // entry that must not be read
		readable []string
	}{
		{"traversal", []entry{{name: "../evil.jsonl", body: []byte("x")}, {name: "sections/a.jsonl", body: []byte("{}")}}, testLimits, "zip.path-traversal", "../evil.jsonl", []string{"sections/a.jsonl"}},
		{"traversal-inner", []entry{{name: "sections/../../x", body: []byte("x")}}, testLimits, "zip.path-traversal", "sections/../../x", nil},
		{"absolute", []entry{{name: "/etc/passwd", body: []byte("x")}}, testLimits, "zip.absolute-path", "/etc/passwd", nil},
		{"drive", []entry{{name: "C:/x.jsonl", body: []byte("x")}}, testLimits, "zip.absolute-path", "C:/x.jsonl", nil},
		{"backslash", []entry{{name: `sections\a.jsonl`, body: []byte("x")}}, testLimits, "zip.absolute-path", `sections\a.jsonl`, nil},
		{"symlink", []entry{{name: "assets/link", body: []byte("/etc/passwd"), mode: fs.ModeSymlink | 0o777}}, testLimits, "zip.symlink", "assets/link", nil},
		{"encrypted", []entry{{name: "sections/a.jsonl", body: []byte("{}"), flags: 0x1}}, testLimits, "zip.encrypted", "sections/a.jsonl", nil},
		{"ratio", []entry{{name: "sections/bomb.jsonl", body: zeros}}, testLimits, "zip.ratio", "sections/bomb.jsonl", nil},
		{"too-large", []entry{{name: "assets/big.bin", body: big, store: true}}, testLimits, "zip.too-large", "assets/big.bin", nil},
		{"case-duplicate", []entry{{name: "sections/A.jsonl", body: []byte("{}")}, {name: "sections/a.jsonl", body: []byte("{}")}}, testLimits, "zip.case-duplicate", "", []string{"sections/A.jsonl", "sections/a.jsonl"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := build(t, c.entries...)
			a, err := Open("b.eval752.zip", bytes.NewReader(b), int64(len(b)), c.lim)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			sums := readAll(a)
			if codeSet(a.Findings)[c.want] == 0 {
				t.Errorf("want a %s finding, got %v", c.want, a.Findings)
			}
			if c.unsafe != "" {
				if _, read := sums[c.unsafe]; read {
					t.Errorf("unsafe entry %q was read", c.unsafe)
				}
			}
			for _, n := range c.readable {
				if _, ok := sums[n]; !ok {
					t.Errorf("safe entry %q was not read", n)
				}
			}
			for _, f := range a.Findings {
				if f.Code == c.want && !strings.HasPrefix(f.Path, "b.eval752.zip") {
					t.Errorf("finding path %q lacks the bundle name", f.Path)
				}
			}
		})
	}
}

func TestDuplicateEntryOnlyFirstRead(t *testing.T) {
	b := build(t, entry{name: "sections/a.jsonl", body: []byte("first")}, entry{name: "sections/a.jsonl", body: []byte("second")})
	a, _ := Open("b.zip", bytes.NewReader(b), int64(len(b)), testLimits)
	if codeSet(a.Findings)["zip.duplicate-entry"] != 1 {
		t.Fatalf("findings %v", a.Findings)
	}
	var safe []string
	for _, e := range a.Entries {
		if e.Safe {
			r, _ := a.OpenEntry(e)
			body, _ := io.ReadAll(r)
			safe = append(safe, string(body))
		}
	}
	if len(safe) != 1 || safe[0] != "first" {
		t.Errorf("read %q, want only the first entry", safe)
	}
}

func TestTooManyEntries(t *testing.T) {
	var es []entry
	for _, n := range []string{"a", "b", "c", "d"} {
		es = append(es, entry{name: "assets/" + n, body: []byte(n)})
	}
	b := build(t, es...)
	lim := testLimits
	lim.MaxEntries = 3
	a, _ := Open("b.zip", bytes.NewReader(b), int64(len(b)), lim)
	if codeSet(a.Findings)["zip.too-many-entries"] != 1 || len(a.Entries) != 3 {
		t.Errorf("entries %d, findings %v", len(a.Entries), a.Findings)
	}
}

// TestTotalCapWhileReading: each entry is under the per-entry cap, but
// together they pass the total cap; the cap is enforced on decompressed bytes.
func TestTotalCapWhileReading(t *testing.T) {
	chunk := bytes.Repeat([]byte{'x'}, 3<<20) // 3 MiB each, stored
	b := build(t, entry{name: "assets/1", body: chunk, store: true}, entry{name: "assets/2", body: chunk, store: true}, entry{name: "assets/3", body: chunk, store: true})
	a, _ := Open("b.zip", bytes.NewReader(b), int64(len(b)), testLimits) // 3 × 3 MiB = 9 MiB > the 8 MiB total cap
	sums := readAll(a)
	if codeSet(a.Findings)["zip.too-large"] != 1 {
		t.Errorf("findings %v", a.Findings)
	}
	if len(sums) != 2 {
		t.Errorf("%d entries read completely, want 2 (the third crosses 8 MiB)", len(sums))
	}
}

// TestLyingHeader: an entry whose header declares 10 bytes but which
// inflates to 1 MiB is stopped and reported, never read beyond.
func TestLyingHeader(t *testing.T) {
	var comp bytes.Buffer
	{
		var tmp bytes.Buffer
		w := zip.NewWriter(&tmp)
		fw, _ := w.Create("x")
		fw.Write(make([]byte, 1<<20))
		w.Close()
		zr, _ := zip.NewReader(bytes.NewReader(tmp.Bytes()), int64(tmp.Len()))
		rc, _ := zr.File[0].OpenRaw()
		io.Copy(&comp, rc)
	}
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	fw, err := w.CreateRaw(&zip.FileHeader{Name: "sections/a.jsonl", Method: zip.Deflate, CompressedSize64: uint64(comp.Len()), UncompressedSize64: 10})
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(comp.Bytes())
	w.Close()
	a, _ := Open("b.zip", bytes.NewReader(buf.Bytes()), int64(buf.Len()), testLimits)
	sums := readAll(a)
	if len(sums) != 0 || len(a.Findings) == 0 {
		t.Errorf("lying entry read: sums %v findings %v", sums, a.Findings)
	}
}

func TestNotAZip(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("PK\x03\x04 garbage"), []byte("hello world, not a zip at all")} {
		a, err := Open("b.zip", bytes.NewReader(b), int64(len(b)), testLimits)
		if err == nil || codeSet(a.Findings)["zip.corrupt"] != 1 {
			t.Errorf("%q: err %v findings %v", b, err, a.Findings)
		}
	}
}

func TestSHA256OfEntry(t *testing.T) {
	b := build(t, entry{name: "sections/a.jsonl", body: []byte("abc")})
	a, _ := Open("b.zip", bytes.NewReader(b), int64(len(b)), testLimits)
	sums := readAll(a)
	// sha256("abc") from FIPS 180-2 appendix B.1
	if got := sums["sections/a.jsonl"]; got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("sha256 = %s", got)
	}
}

// FuzzOpen: any bytes given as a zip become findings, never a panic or hang.
func FuzzOpen(f *testing.F) {
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte("PK\x05\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	fw, _ := w.Create("sections/a.jsonl")
	fw.Write([]byte(`{"id":"x"}`))
	w.Close()
	f.Add(buf.Bytes())
	// issue 9's zip traps: traversal, absolute path, symlink, encrypted,
	// a compressed run of zeros (ratio), duplicate names
	buf.Reset()
	w = zip.NewWriter(&buf)
	for _, e := range []struct {
		name  string
		mode  fs.FileMode
		flags uint16
		body  []byte
	}{
		{"../evil.jsonl", 0, 0, []byte("{}")},
		{"/abs.jsonl", 0, 0, []byte("{}")},
		{"assets/link", fs.ModeSymlink | 0o777, 0, []byte("/etc/passwd")},
		{"sections/enc.jsonl", 0, 1, []byte("x")},
		{"sections/zeros.jsonl", 0, 0, make([]byte, 64<<10)},
		{"sections/a.jsonl", 0, 0, []byte(`{"id":1e-9999999}`)},
		{"sections/A.jsonl", 0, 0, []byte("{}")},
	} {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Flags: e.flags}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		fw, _ := w.CreateHeader(h)
		fw.Write(e.body)
	}
	w.Close()
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := Open("f.zip", bytes.NewReader(b), int64(len(b)), testLimits)
		if err != nil {
			return
		}
		readAll(a)
	})
}

// TestUnicodeDuplicate: "é" composed (U+00E9, bytes c3 a9) and decomposed
// ("e" + U+0301, bytes 65 cc 81) are one name to a user and two to a zip
// reader; the second entry gets one zip.unicode-duplicate naming both with
// escaped code points. U+212A KELVIN SIGN is canonically "K" (NFC maps it to
// U+004B), so it collides with an ASCII name. Distinct accents and distinct
// ASCII names stay silent.
func TestUnicodeDuplicate(t *testing.T) {
	composed, decomposed := "sections/caf\u00e9.jsonl", "sections/cafe\u0301.jsonl"
	if composed == decomposed {
		t.Fatal("the fixture names must differ in bytes")
	}
	cases := []struct {
		name  string
		names []string
		want  []string // messages of zip.unicode-duplicate, in order
	}{
		{"nfc then nfd", []string{composed, decomposed},
			[]string{`entry "sections/cafe\u0301.jsonl" and entry "sections/caf\u00e9.jsonl" are the same name once Unicode-normalised (NFC "sections/caf\u00e9.jsonl") but different bytes`}},
		{"nfd then nfc", []string{decomposed, composed},
			[]string{`entry "sections/caf\u00e9.jsonl" and entry "sections/cafe\u0301.jsonl" are the same name once Unicode-normalised (NFC "sections/caf\u00e9.jsonl") but different bytes`}},
		// Hangul: 가 (U+AC00) is ᄀ (U+1100) + ᅡ (U+1161) decomposed
		{"hangul folder", []string{"assets/\uac00/a.png", "assets/\u1100\u1161/a.png"},
			[]string{`entry "assets/\u1100\u1161/a.png" and entry "assets/\uac00/a.png" are the same name once Unicode-normalised (NFC "assets/\uac00/a.png") but different bytes`}},
		{"distinct accents", []string{composed, "sections/caf\u00e8.jsonl"}, nil},
		{"ascii", []string{"sections/cafe.jsonl", "sections/caf.jsonl"}, nil},
		{"kelvin sign", []string{"assets/K.png", "assets/\u212a.png"},
			[]string{`entry "assets/\u212a.png" and entry "assets/K.png" are the same name once Unicode-normalised (NFC "assets/K.png") but different bytes`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var es []entry
			for _, n := range c.names {
				es = append(es, entry{name: n, body: []byte("{}")})
			}
			b := build(t, es...)
			a, err := Open("b.eval752.zip", bytes.NewReader(b), int64(len(b)), testLimits)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			var got []string
			for _, f := range a.Findings {
				switch f.Code {
				case "zip.unicode-duplicate":
					got = append(got, f.Message)
					if f.Path != "b.eval752.zip!"+c.names[1] {
						t.Errorf("path %q, want the second entry %q", f.Path, "b.eval752.zip!"+c.names[1])
					}
				case "zip.case-duplicate", "zip.duplicate-entry":
					t.Errorf("unexpected %s: %s", f.Code, f.Message)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("messages\n%q\nwant\n%q", got, c.want)
			}
			// both entries stay readable: the names are different files
			if sums := readAll(a); len(sums) != len(c.names) {
				t.Errorf("read %d entries, want %d", len(sums), len(c.names))
			}
		})
	}
}
