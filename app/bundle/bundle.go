// Package bundle opens a .eval752.zip safely through an io.ReaderAt.
//
// The archive is never read whole: archive/zip reads the central directory
// and each entry through ReadAt, so the browser can back the reader with
// Blob.slice. Every entry is checked before it is read — path traversal,
// absolute paths, duplicates (of the cleaned name: "./a" and "a//b" are "a"
// and "a/b"), symlinks, encryption, size and compression ratio, and entries
// whose bytes overlap (the non-recursive zip bomb) — and an unsafe entry is
// reported and never decompressed. Headers can lie about sizes, so the caps
// are enforced again while decompressing, the ratio on the compressed bytes
// the decompressor actually consumed.
package bundle

import (
	"archive/zip"
	"bufio"
	"compress/flate"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"path"
	"strings"

	"golang.org/x/text/unicode/norm"

	"eval752/app/finding"
)

// Rules of this package.
var (
	RuleCorrupt = finding.Register(finding.Rule{
		Code: "zip.corrupt", Severity: finding.Error, Family: "zip",
		Description: "the archive or one of its entries cannot be read (bad zip structure, checksum, compression)",
		Source:      "seed 004 (.eval752.zip)",
		Hint:        "re-create the bundle with a standard zip tool (zip -r bundle.eval752.zip manifest.json meta.json sections assets)",
	})
	RuleTraversal = finding.Register(finding.Rule{
		Code: "zip.path-traversal", Severity: finding.Error, Family: "zip",
		Description: "an entry name climbs out of the bundle with '..'; it is not read",
		Source:      "spec §6 (the zip reader is safe against path traversal)",
		Hint:        "store entries with paths relative to the bundle root, without '..'",
	})
	RuleAbsolute = finding.Register(finding.Rule{
		Code: "zip.absolute-path", Severity: finding.Error, Family: "zip",
		Description: "an entry name is absolute, has a drive letter or backslashes; it is not read",
		Source:      "spec §6; APPNOTE 4.4.17 (names are relative, '/'-separated)",
		Hint:        "store entries with relative '/'-separated paths such as sections/a.jsonl",
	})
	RuleDuplicate = finding.Register(finding.Rule{
		Code: "zip.duplicate-entry", Severity: finding.Error, Family: "zip",
		Description: "two entries have the same name (tools disagree on which one wins); only the first is read",
		Source:      "spec §6 (duplicate entries)",
		Hint:        "rebuild the archive so each path occurs once",
	})
	RuleCaseDuplicate = finding.Register(finding.Rule{
		Code: "zip.case-duplicate", Severity: finding.Warning, Family: "zip",
		Description: "two entry names differ only in letter case (they collide on macOS and Windows)",
		Source:      "spec §6 (duplicate entries)",
		Hint:        "rename one of the entries",
	})
	RuleNormDuplicate = finding.Register(finding.Rule{
		Code: "zip.unicode-duplicate", Severity: finding.Warning, Family: "zip",
		Description: "two entry names are the same text but different bytes: equal once Unicode-normalised (NFC), e.g. \"é\" composed (U+00E9) in one and decomposed (e + U+0301) in the other, as macOS zips write them; a user sees one name, tools see two files",
		Source:      "spec §6 (duplicate entries)",
		Hint:        "rename or re-zip so each name occurs once, in one normal form (NFC: e.g. convert the names with convmv -f utf8 -t utf8 --nfc before zipping)",
	})
	RuleSymlink = finding.Register(finding.Rule{
		Code: "zip.symlink", Severity: finding.Error, Family: "zip",
		Description: "an entry is a symbolic link or other non-regular file; it is not read",
		Source:      "spec §6",
		Hint:        "store the file itself, not a link to it",
	})
	RuleEncrypted = finding.Register(finding.Rule{
		Code: "zip.encrypted", Severity: finding.Error, Family: "zip",
		Description: "an entry is encrypted; it cannot be checked and is not read",
		Source:      "spec §6",
		Hint:        "build the bundle without a password",
	})
	RuleRatio = finding.Register(finding.Rule{
		Code: "zip.ratio", Severity: finding.Error, Family: "zip",
		Description: "an entry's compression ratio is absurd (zip bomb guard); it is not read",
		Source:      "spec §6 (zip bombs)",
		Hint:        "check the entry; if it is genuine, raise the cap (command line: --max-ratio N)",
	})
	RuleTooLarge = finding.Register(finding.Rule{
		Code: "zip.too-large", Severity: finding.Error, Family: "zip",
		Description: "an entry (or the bundle in total) is larger than the configured cap; reading stopped",
		Source:      "spec §6",
		Hint:        "split the data or raise the cap (command line: --max-entry-mb N, --max-total-mb N)",
	})
	RuleTooMany = finding.Register(finding.Rule{
		Code: "zip.too-many-entries", Severity: finding.Error, Family: "zip",
		Description: "the archive has more entries than the configured cap; the rest are not read",
		Source:      "spec §6",
		Hint:        "reduce the number of files or raise the cap (command line: --max-entries N)",
	})
	RuleOverlap = finding.Register(finding.Rule{
		Code: "zip.overlap", Severity: finding.Error, Family: "zip",
		Description: "entries of the central directory share bytes of the archive (many entries inflating one compressed kernel: a non-recursive zip bomb); they are not read",
		Source:      "spec §6 (zip bombs); APPNOTE 4.3.6 (entries are stored one after the other); D. Fifield, \"A better zip bomb\" (2019)",
		Hint:        "the archive is crafted or damaged: re-create it with a standard zip tool",
	})
	RuleUnknownEntry = finding.Register(finding.Rule{
		Code: "zip.unknown-entry", Severity: finding.Warning, Family: "zip",
		Description: "an entry lies outside the bundle layout; it is hashed but not read",
		Source:      "seed 004 (bundle layout) + eval752's optional corpus/ and runs/ folders",
		Hint:        "move it under assets/, sections/, checkers/, corpus/ or runs/<name>/, or remove it",
	})
)

// Limits bound what reading one bundle may cost (the fields of
// dataset.Limits that concern archives; dataset imports this package).
type Limits struct {
	MaxEntries    int
	MaxEntryBytes int64
	MaxTotalBytes int64
	MaxRatio      float64
}

// Entry is one archive entry with the verdict of its safety checks.
type Entry struct {
	Name string // as stored
	File *zip.File
	Safe bool // false: reported and never opened
	Dir  bool // a directory entry (name ends with "/")
}

// Archive is an opened bundle.
type Archive struct {
	Path     string // the input name, for findings ("bundle.eval752.zip")
	Entries  []*Entry
	Findings finding.List
	lim      Limits
	total    int64        // uncompressed bytes read so far, all entries
	cur      *countReader // the raw stream of the entry being opened
}

// countReader counts the compressed bytes a decompressor takes from an
// entry's raw stream. It is an io.ByteReader, so compress/flate reads it
// byte by byte without a read-ahead buffer of its own: the count is what
// was consumed, whatever the headers declare.
type countReader struct {
	br *bufio.Reader
	n  int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.br.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countReader) ReadByte() (byte, error) {
	b, err := c.br.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// Full is the finding path of an entry: "bundle.eval752.zip!sections/a.jsonl".
func (a *Archive) Full(name string) string { return a.Path + "!" + name }

// Open reads the central directory of the zip of size bytes behind r and
// checks every entry. err is non-nil only when the archive cannot be opened
// at all; it is then also recorded as one zip.corrupt finding.
func Open(name string, r io.ReaderAt, size int64, lim Limits) (a *Archive, err error) {
	a = &Archive{Path: name, lim: lim}
	defer func() {
		if p := recover(); p != nil { // archive/zip must not take the process down
			err = fmt.Errorf("zip reader failed: %v", p)
			a.Findings = append(a.Findings, RuleCorrupt.At(name, 0, "", "cannot open the archive: %v", err))
		}
	}()
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		a.Findings = append(a.Findings, RuleCorrupt.At(name, 0, "", "cannot open the archive: %v", err))
		return a, err
	}
	if zr == nil {
		a.Findings = append(a.Findings, RuleCorrupt.At(name, 0, "", "cannot open the archive"))
		return a, errors.New("zip: no reader")
	}
	// the decompressors read through a counter (the ratio guard's
	// denominator); entries are opened one at a time (OpenEntry takes cur)
	zr.RegisterDecompressor(zip.Store, func(r io.Reader) io.ReadCloser {
		a.cur = &countReader{br: bufio.NewReaderSize(r, 32<<10)}
		return io.NopCloser(a.cur)
	})
	zr.RegisterDecompressor(zip.Deflate, func(r io.Reader) io.ReadCloser {
		a.cur = &countReader{br: bufio.NewReaderSize(r, 32<<10)}
		return flate.NewReader(a.cur)
	})
	seen := map[string]string{}
	lower, nfc := map[string]string{}, map[string]string{}
	for i, f := range zr.File {
		if lim.MaxEntries > 0 && i >= lim.MaxEntries {
			a.Findings = append(a.Findings, RuleTooMany.At(name, 0, "", "the archive has %d entries, more than the limit of %d; entries after #%d are not read", len(zr.File), lim.MaxEntries, lim.MaxEntries))
			break
		}
		e := &Entry{Name: f.Name, File: f, Dir: strings.HasSuffix(f.Name, "/")}
		e.Safe = a.check(f, seen, lower, nfc)
		a.Entries = append(a.Entries, e)
	}
	a.checkOverlap(r, size, zr.File)
	return a, nil
}

// checkOverlap finds entries sharing bytes of the archive, from the central
// directory alone (before anything is inflated), reports them in one
// zip.overlap finding and marks every one of them unsafe.
func (a *Archive) checkOverlap(r io.ReaderAt, size int64, files []*zip.File) {
	offs, ok := headerOffsets(r, size, files)
	if !ok {
		return
	}
	offs = offs[:len(a.Entries)] // the entries past the --max-entries cap are not read anyway
	pairs := overlaps(a.Entries, offs)
	if len(pairs) == 0 {
		return
	}
	bad := map[int]bool{}
	for _, p := range pairs {
		bad[p[0]], bad[p[1]] = true, true
	}
	for i := range bad {
		a.Entries[i].Safe = false
	}
	first, other := a.Entries[pairs[0][0]], a.Entries[pairs[0][1]]
	a.Findings = append(a.Findings, RuleOverlap.At(a.Path, 0, "",
		"%d entries share bytes with another entry (first: %q at offset %d lies within %q at offset %d, which declares %d compressed bytes); none of them is read",
		len(bad), first.Name, offs[pairs[0][0]], other.Name, offs[pairs[0][1]], other.File.CompressedSize64))
}

// check applies every safety rule to one entry; it reports each problem.
func (a *Archive) check(f *zip.File, seen, lower, nfc map[string]string) bool {
	n := f.Name
	full := a.Full(n)
	safe := true
	switch {
	case n == "":
		a.Findings = append(a.Findings, RuleAbsolute.At(a.Path, 0, "", "an entry has an empty name"))
		return false
	case strings.Contains(n, "\\"):
		a.Findings = append(a.Findings, RuleAbsolute.At(full, 0, "", "entry name %q contains a backslash", n))
		safe = false
	case strings.HasPrefix(n, "/") || len(n) >= 2 && n[1] == ':' || strings.HasPrefix(n, "//"):
		a.Findings = append(a.Findings, RuleAbsolute.At(full, 0, "", "entry name %q is an absolute path", n))
		safe = false
	case strings.ContainsRune(n, 0):
		a.Findings = append(a.Findings, RuleAbsolute.At(full, 0, "", "entry name %q contains a NUL byte", n))
		safe = false
	}
	for _, part := range strings.Split(strings.ReplaceAll(n, "\\", "/"), "/") {
		if part == ".." {
			a.Findings = append(a.Findings, RuleTraversal.At(full, 0, "", "entry name %q climbs out of the bundle with '..'", n))
			safe = false
			break
		}
	}
	// names are compared as paths: "./a", "a//b", "a/./b" and a folder's
	// trailing "/" name what "a", "a/b" and "a" name
	key := path.Clean(n)
	if prev, dup := seen[key]; dup {
		if prev == n {
			a.Findings = append(a.Findings, RuleDuplicate.At(full, 0, "", "entry %q occurs more than once; only the first is read", n))
		} else {
			a.Findings = append(a.Findings, RuleDuplicate.At(full, 0, "", "entry %q names the same path as %q (%q once cleaned); only the first is read", n, prev, key))
		}
		return false
	}
	seen[key] = n
	// names equal once NFC-normalised but of different bytes; every name is
	// keyed (norm returns an NFC name as it is), since a non-ASCII name can
	// normalise to an ASCII one (U+212A KELVIN SIGN is "K")
	nk := norm.NFC.String(key)
	prevNFC, dupNFC := nfc[nk]
	if dupNFC {
		a.Findings = append(a.Findings, RuleNormDuplicate.At(full, 0, "", "entry %+q and entry %+q are the same name once Unicode-normalised (NFC %+q) but different bytes", n, prevNFC, nk))
	} else {
		nfc[nk] = n
	}
	// one finding a pair: a pair equal once normalised is not also a case pair
	if prev, ok := lower[strings.ToLower(key)]; ok {
		if !dupNFC {
			a.Findings = append(a.Findings, RuleCaseDuplicate.At(full, 0, "", "entry %q differs from %q only in letter case", n, prev))
		}
	} else {
		lower[strings.ToLower(key)] = n
	}
	mode := f.Mode()
	if mode&fs.ModeSymlink != 0 {
		a.Findings = append(a.Findings, RuleSymlink.At(full, 0, "", "entry %q is a symbolic link", n))
		safe = false
	} else if mode&(fs.ModeDevice|fs.ModeNamedPipe|fs.ModeSocket|fs.ModeCharDevice|fs.ModeIrregular) != 0 {
		a.Findings = append(a.Findings, RuleSymlink.At(full, 0, "", "entry %q is not a regular file (mode %v)", n, mode))
		safe = false
	}
	if f.Flags&0x1 != 0 {
		a.Findings = append(a.Findings, RuleEncrypted.At(full, 0, "", "entry %q is encrypted", n))
		safe = false
	}
	if f.Method != zip.Store && f.Method != zip.Deflate {
		a.Findings = append(a.Findings, RuleCorrupt.At(full, 0, "", "entry %q uses compression method %d; only store and deflate are supported", n, f.Method))
		safe = false
	}
	if a.lim.MaxEntryBytes > 0 && f.UncompressedSize64 > uint64(a.lim.MaxEntryBytes) {
		a.Findings = append(a.Findings, RuleTooLarge.At(full, 0, "", "entry %q declares %d bytes uncompressed, more than the limit of %d", n, f.UncompressedSize64, a.lim.MaxEntryBytes))
		safe = false
	}
	if r := ratio(f.UncompressedSize64, f.CompressedSize64); a.lim.MaxRatio > 0 && r > a.lim.MaxRatio && f.UncompressedSize64 > 1<<20 {
		a.Findings = append(a.Findings, RuleRatio.At(full, 0, "", "entry %q expands %d → %d bytes (ratio %.0f, limit %.0f)", n, f.CompressedSize64, f.UncompressedSize64, r, a.lim.MaxRatio))
		safe = false
	}
	return safe
}

// ratio is uncompressed/compressed, treating an empty compressed stream as 1 byte.
func ratio(u, c uint64) float64 {
	if c == 0 {
		c = 1
	}
	return float64(u) / float64(c)
}

// ErrLimit is returned by a Reader when a size or ratio cap is hit while
// decompressing (the header lied); the finding has been recorded.
var ErrLimit = errors.New("bundle: entry exceeds a size or ratio limit")

// Reader streams one entry, hashing it and enforcing the caps.
type Reader struct {
	a    *Archive
	e    *Entry
	rc   io.ReadCloser
	raw  *countReader // the compressed bytes consumed
	h    hash.Hash
	n    int64
	done bool
	err  error
}

// OpenEntry starts reading a safe entry. The caller reads it to EOF (or
// gives up) and calls Close; SHA256 is valid after EOF. Errors of the
// stream (corrupt data, checksum, caps) are recorded as findings once.
func (a *Archive) OpenEntry(e *Entry) (*Reader, error) {
	if !e.Safe {
		return nil, errors.New("bundle: entry is unsafe and not read")
	}
	a.cur = nil
	rc, err := e.File.Open()
	if err != nil {
		a.Findings = append(a.Findings, RuleCorrupt.At(a.Full(e.Name), 0, "", "cannot read entry %q: %v", e.Name, err))
		return nil, err
	}
	raw := a.cur
	a.cur = nil
	return &Reader{a: a, e: e, rc: rc, raw: raw, h: sha256.New()}, nil
}

// Read implements io.Reader.
func (r *Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	lim := r.a.lim
	n, err := r.rc.Read(p)
	r.h.Write(p[:n])
	r.n += int64(n)
	r.a.total += int64(n)
	full := r.a.Full(r.e.Name)
	switch {
	case lim.MaxEntryBytes > 0 && r.n > lim.MaxEntryBytes:
		r.fail(RuleTooLarge.At(full, 0, "", "entry %q is larger than the limit of %d bytes while decompressing (its header declared %d); reading stopped", r.e.Name, lim.MaxEntryBytes, r.e.File.UncompressedSize64))
		return n, r.err
	case lim.MaxTotalBytes > 0 && r.a.total > lim.MaxTotalBytes:
		r.fail(RuleTooLarge.At(full, 0, "", "the bundle's entries exceed %d bytes in total; reading stopped at %q", lim.MaxTotalBytes, r.e.Name))
		return n, r.err
	case lim.MaxRatio > 0 && r.n > 1<<20 && float64(r.n) > lim.MaxRatio*float64(max(r.consumed(), 1)):
		r.fail(RuleRatio.At(full, 0, "", "entry %q expands beyond ratio %.0f while decompressing (%d bytes from %d compressed bytes read; its headers declare %d); reading stopped", r.e.Name, lim.MaxRatio, r.n, r.consumed(), r.e.File.CompressedSize64))
		return n, r.err
	}
	if err != nil && err != io.EOF {
		switch {
		case errors.Is(err, zip.ErrFormat):
			// archive/zip stops a stream that runs past its declared size
			r.fail(RuleCorrupt.At(full, 0, "", "entry %q expands past the %d bytes its header declares, or its data is damaged; reading stopped", r.e.Name, r.e.File.UncompressedSize64))
		case errors.Is(err, zip.ErrChecksum):
			r.fail(RuleCorrupt.At(full, 0, "", "entry %q does not match its CRC-32 checksum: the archive is damaged", r.e.Name))
		default:
			r.fail(RuleCorrupt.At(full, 0, "", "entry %q is corrupt: %v", r.e.Name, err))
		}
		return n, r.err
	}
	if err == io.EOF {
		r.done = true
	}
	return n, err
}

// consumed is the number of compressed bytes the decompressor has taken so
// far (never more than the declared size: archive/zip bounds the stream).
func (r *Reader) consumed() int64 {
	if r.raw == nil {
		return int64(r.e.File.CompressedSize64)
	}
	return r.raw.n
}

func (r *Reader) fail(f finding.Finding) {
	r.a.Findings = append(r.a.Findings, f)
	r.err = ErrLimit
	if f.Code == RuleCorrupt.Code {
		r.err = errors.New(f.Message)
	}
}

// Close releases the entry.
func (r *Reader) Close() error { return r.rc.Close() }

// Complete reports whether the entry was read to its end without error.
func (r *Reader) Complete() bool { return r.done && r.err == nil }

// Err is the error that stopped the stream, if any (already a finding).
func (r *Reader) Err() error { return r.err }

// SHA256 is the hex sha256 of the bytes read so far (all of them after EOF).
func (r *Reader) SHA256() string { return hex.EncodeToString(r.h.Sum(nil)) }

// Size is the number of bytes read so far.
func (r *Reader) Size() int64 { return r.n }

// Drain reads the rest of the entry (to hash it) and closes it.
func (r *Reader) Drain() error {
	_, err := io.Copy(io.Discard, r)
	r.Close()
	if err == ErrLimit || r.err != nil {
		return r.err
	}
	return err
}

// Clean returns the cleaned form of a safe entry name ("./a//b" → "a/b").
func Clean(name string) string { return path.Clean(name) }
