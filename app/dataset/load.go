package dataset

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"eval752/app/bundle"
	"eval752/app/finding"
	"eval752/app/formats"
	"eval752/app/jsonl"
	"eval752/app/model"
	"eval752/app/peer"
)

// headSize is how much of a file format detection looks at first; a file
// whose first line is longer is read on until that line is whole, up to the
// line cap (Limits.MaxLineBytes, 64 MiB by default), so one long record does
// not hide the format of a file: the documented caps are the only limits.
// Memory stays bounded by the cap; the head is what the parser then reads
// first, not a second copy of the file. maxHeadSize bounds the head when
// no line cap is set.
const (
	headSize    = 64 << 10
	maxHeadSize = 64 << 20
)

// readHead reads the start of r for format detection: headSize bytes, or
// more until they hold one whole non-blank line. complete is true when the
// head is all of r; err is a read error other than the end of r.
func readHead(r io.Reader, maxLine int64) (head []byte, complete bool, err error) {
	limit := int64(maxHeadSize)
	if maxLine > 0 {
		limit = maxLine + 1
	}
	head = make([]byte, 0, headSize)
	for want := int64(headSize); ; want *= 2 {
		if want > limit {
			want = limit
		}
		n, err := io.ReadFull(r, head[len(head):want:want])
		head = head[:len(head)+n]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return head, true, nil
		}
		if err != nil {
			return head, true, err
		}
		if want >= limit || hasWholeLine(head) {
			return head, false, nil
		}
		head = append(make([]byte, 0, 2*want), head...)
	}
}

// wideEncoding names a UTF-16 or UTF-32 text encoding recognised by its
// byte order mark or by NUL bytes between ASCII characters; "" otherwise.
func wideEncoding(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE, 0, 0}):
		return "UTF-32LE"
	case bytes.HasPrefix(head, []byte{0, 0, 0xFE, 0xFF}):
		return "UTF-32BE"
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return "UTF-16LE"
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return "UTF-16BE"
	}
	if len(head) >= 4 && head[0] != 0 && head[1] == 0 && head[2] != 0 && head[3] == 0 {
		return "UTF-16LE"
	}
	if len(head) >= 4 && head[0] == 0 && head[1] != 0 && head[2] == 0 && head[3] != 0 {
		return "UTF-16BE"
	}
	return ""
}

// hasWholeLine reports whether b holds a newline after some non-blank byte.
func hasWholeLine(b []byte) bool {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return false
		}
		if len(bytes.TrimSpace(b[:i])) > 0 {
			return true
		}
		b = b[i+1:]
	}
	return false
}

// Load reads every input into one Dataset. Each input is a bundle (zip magic)
// or a single file whose format is detected from its content unless
// Input.Format forces it. Problems of the inputs are findings in
// Dataset.Findings (normalized: sorted, de-duplicated); the error is non-nil
// only when reading itself failed (an I/O error of an Input.R, or ctx was
// cancelled), never because an input is malformed.
//
// Inputs are read through ReadAt only, sequentially, and never whole: JSONL is
// streamed line by line, zip entries are decompressed as streams.
func Load(ctx context.Context, inputs []Input, opt Options) (*Dataset, error) {
	if opt.Limits == (Limits{}) {
		opt.Limits = DefaultLimits()
	}
	l := &loader{ctx: ctx, opt: opt, ds: &Dataset{Has: map[model.Format]bool{}}, intern: newInterner()}
	if opt.Limits.MaxFindings > 0 {
		l.capper = finding.NewCapper(opt.Limits.MaxFindings)
	}
	for _, in := range inputs {
		l.total += in.Size
		if in.R != nil && isZipInput(in) {
			l.total += in.Size // a bundle is read twice: hashed whole, then entry by entry
		}
	}
	l.report(true)
	defer l.netPanic()
	names := map[string]int{}
	for i, in := range inputs {
		if err := ctx.Err(); err != nil {
			return l.finish(), err
		}
		if dup, err := repeated(ctx, inputs[:i], in); err != nil {
			return l.finish(), err
		} else if dup {
			l.add(RuleRepeated.At(in.Name, 0, "", "%s was given twice with the same content; it is read once", in.Name))
			continue
		}
		// two different files of one name (a browser gives base names
		// only): the second is "name (2).ext", so findings, runs and
		// inputs tell them apart
		if k := names[in.Name]; k > 0 {
			names[in.Name] = k + 1
			ext := path.Ext(in.Name)
			in.Name = fmt.Sprintf("%s (%d)%s", strings.TrimSuffix(in.Name, ext), k+1, ext)
		} else {
			names[in.Name] = 1
		}
		if err := l.input(in); err != nil {
			return l.finish(), err
		}
	}
	l.report(true)
	return l.finish(), nil
}

// repeated reports whether in is an earlier input given again: the same
// name, size and bytes (two different files may share a name).
func repeated(ctx context.Context, earlier []Input, in Input) (bool, error) {
	for _, e := range earlier {
		if e.Name != in.Name || e.Size != in.Size || e.R == nil || in.R == nil {
			continue
		}
		a, err := hashReaderAt(ctx, e.R, e.Size)
		if err != nil {
			return false, err
		}
		b, err := hashReaderAt(ctx, in.R, in.Size)
		if err != nil {
			return false, err
		}
		if a == b {
			return true, nil
		}
	}
	return false, nil
}

type loader struct {
	ctx      context.Context
	opt      Options
	ds       *Dataset
	mu       sync.Mutex
	done     int64
	total    int64
	reported int64
	reading  string // the file being read, for the panic net (ReadPanic)
	capper   *finding.Capper
	intern   *interner
}

func (l *loader) finish() *Dataset {
	l.finishPeers()
	if l.capper != nil {
		l.ds.Findings = append(l.ds.Findings, l.capper.Summaries()...)
		l.capper = nil
	}
	l.ds.Locate(l.ds.Findings)
	l.ds.Findings = l.ds.Findings.Normalize()
	return l.ds
}

// add keeps fs, up to Limits.MaxFindings per rule code and file (the rest
// are counted in a summary finding, see finding.Capper).
func (l *loader) add(fs ...finding.Finding) {
	for _, f := range fs {
		if l.capper == nil || l.capper.Keep(f) {
			l.ds.Findings = append(l.ds.Findings, f)
		} else if f.Pointer != "" && strings.HasPrefix(f.Code, "schema.") {
			l.ds.SchemaCapped.Add(f.Path, f.Line, f.Pointer)
			// a record of a JSON array file: its schema pointers start
			// with the element's index, the rules' pointers do not
			if rest, ok := strings.CutPrefix(f.Pointer, "/"); ok {
				if i := strings.IndexByte(rest, '/'); i > 0 && strings.Trim(rest[:i], "0123456789") == "" {
					l.ds.SchemaCapped.Add(f.Path, f.Line, rest[i:])
				}
			}
		}
	}
}

// report calls opt.Progress when at least 256 KiB more were read (or force).
func (l *loader) report(force bool) {
	if l.opt.Progress == nil {
		return
	}
	l.mu.Lock()
	done := l.done
	if !force && done-l.reported < 256<<10 {
		l.mu.Unlock()
		return
	}
	l.reported = done
	l.mu.Unlock()
	l.opt.Progress(Progress{Stage: "read", Done: done, Total: l.total})
}

// countingReaderAt counts the bytes read from an input (for progress; zip
// entries are read through it too, so a bundle reports compressed bytes).
type countingReaderAt struct {
	r io.ReaderAt
	l *loader
}

func (c countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.l.mu.Lock()
	c.l.done += int64(n)
	c.l.mu.Unlock()
	c.l.report(false)
	return n, err
}

// ctxReader stops a stream when the context is cancelled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

func isZipInput(in Input) bool {
	if in.Format == model.FormatBundle {
		return true
	}
	var magic [4]byte
	n, _ := in.R.ReadAt(magic[:], 0)
	return n == 4 && (bytes.Equal(magic[:], formats.ZipMagic) || bytes.Equal(magic[:], formats.ZipEmptyMagic))
}

// readErr marks an error of the underlying reader (not of the content).
type readErr struct{ err error }

func (e readErr) Error() string { return e.err.Error() }
func (e readErr) Unwrap() error { return e.err }

func (l *loader) input(in Input) error {
	if in.R == nil {
		return fmt.Errorf("%s: no reader", in.Name)
	}
	ra := countingReaderAt{r: in.R, l: l}
	var magic [4]byte
	n, _ := ra.ReadAt(magic[:], 0)
	isZip := n == 4 && (bytes.Equal(magic[:], formats.ZipMagic) || bytes.Equal(magic[:], formats.ZipEmptyMagic))
	forced := in.Format
	if forced != "" && !formats.Known(forced) {
		l.add(formats.RuleBadForced.At(in.Name, 0, "", "unknown format %q; detecting the format from the content instead", forced))
		forced = ""
	}
	// zip content is always a bundle: a --format given for the files of a
	// run applies to the plain files beside it, not to the archive
	if forced == model.FormatBundle || isZip {
		return l.bundle(in.Name, ra, in.Size)
	}
	if forced == "" && strings.HasSuffix(strings.ToLower(in.Name), ".zip") {
		// named as a bundle but not a zip: say so, rather than "format
		// unknown" or "empty file" of a plain file
		sum, err := hashReaderAt(l.ctx, ra, in.Size)
		if err != nil {
			return fmt.Errorf("%s: %w", in.Name, err)
		}
		l.ds.Inputs = append(l.ds.Inputs, InputInfo{Path: in.Name, Format: model.FormatBundle, SHA256: sum, Size: in.Size})
		if in.Size == 0 {
			l.add(bundle.RuleCorrupt.At(in.Name, 0, "", "the file is empty, not a zip archive"))
		} else {
			l.add(bundle.RuleCorrupt.At(in.Name, 0, "", "the file is named .zip but is not a zip archive: it starts with %q, a zip starts with \"PK\\x03\\x04\"", magic[:n]))
		}
		return nil
	}
	sr := io.NewSectionReader(ra, 0, in.Size)
	fc := looseCtx(in.Name)
	fc.optional = fc.optional || in.InFolder
	info, err := l.file(in.Name, sr, in.Size, forced, fc)
	l.ds.Inputs = append(l.ds.Inputs, info)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	return nil
}

// fileCtx is what a file's place in a bundle says about it.
type fileCtx struct {
	run        string       // runs/<name>/…: the run's name
	defaultFmt model.Format // format to use when detection fails (results.jsonl)
	optional   bool         // corpus/ or runs/: a file of a format eval752 does not read is only noted
}

// file reads one file (top-level or a bundle entry) of any non-bundle
// format. name is the finding path. It returns the file's InputInfo; err is
// an error of r.
func (l *loader) file(name string, r io.Reader, size int64, forced model.Format, fc fileCtx) (InputInfo, error) {
	l.reading = name
	if TestHookRead != nil {
		TestHookRead(name)
	}
	h := sha256.New()
	cnt := &countWriter{}
	src := io.TeeReader(ctxReader{l.ctx, r}, io.MultiWriter(h, cnt))
	head, complete, herr := readHead(src, l.opt.Limits.MaxLineBytes)
	info := InputInfo{Path: name, Size: size}
	if herr != nil {
		// the reader failed (a damaged zip entry reports itself): nothing
		// can be said of the content
		return info, herr
	}
	br := bufio.NewReaderSize(io.MultiReader(bytes.NewReader(head), src), headSize)

	f := forced
	if f == "" && seed003Unread[strings.ToLower(path.Base(strings.ReplaceAll(name, "\\", "/")))] {
		// a pipeline file of seed 003 §10 (raw_manifest.jsonl keyed by
		// doc_id is no documents.jsonl): noted, whatever it looks like
		fc.optional = true
	} else if f == "" {
		d := formats.Detect(name, head, complete)
		f = d.Format
		if f == model.FormatUnknown && fc.defaultFmt != "" {
			f = fc.defaultFmt
		}
	}
	if f == model.FormatBundle {
		f = model.FormatUnknown // a zip inside a zip is not read
	}
	info.Format = f
	var err error
	switch {
	case f == model.FormatUnknown:
		if len(bytes.TrimSpace(head)) == 0 && complete {
			l.add(RuleEmpty.At(name, 0, "", "the file is empty"))
		} else if enc := wideEncoding(head); enc != "" {
			l.add(jsonl.RuleInvalidUTF8.At(name, 0, "", "the file is %s, not UTF-8, so it cannot be read", enc).
				WithHint("re-encode it as UTF-8, e.g. iconv -f " + strings.ReplaceAll(enc, " ", "") + " -t UTF-8"))
		} else {
			if formats.LooksJSON(head) {
				// no record parsed or fitted a format: still say where the
				// JSON is broken (records of no format are not kept)
				if wholeJSON(name, head, complete, f) {
					info.Lines, err = l.jsonDocument(name, br, f, fc)
				} else {
					info.Lines, err = l.jsonLines(name, br, f, fc)
				}
			}
			if fc.optional {
				l.add(RuleSkipped.At(name, 0, "", "%s is not a format eval752 reads; it is hashed but not checked", path.Base(name)))
			} else {
				l.add(formats.RuleUnknown.At(name, 0, "", "cannot tell the format of %s from its content", path.Base(name)))
			}
		}
	case f == model.FormatRAGConfig:
		l.ds.Has[f] = true
		var m map[string]any
		var at map[string]int
		var fs finding.List
		m, at, info.Lines, fs, err = ParseYAML(br, name, l.opt.Limits.MaxLineBytes)
		l.add(fs...)
		if l.ds.KeyLines == nil {
			l.ds.KeyLines = map[string]map[string]int{}
		}
		l.ds.KeyLines[name] = at
		l.addRecord(f, l.ds.At(name, 0, 0), m, nil, "", fc)
	case f == model.FormatTRECQrels:
		l.ds.Has[f] = true
		var q QrelsFile
		var fs finding.List
		q, info.Lines, fs, err = ParseQrels(br, name, l.opt.Limits.MaxLineBytes)
		l.add(fs...)
		l.ds.Qrels = append(l.ds.Qrels, q)
	case f == model.FormatInspectEval:
		// forced on a file that is not a zip (a zip never gets here)
		l.add(bundle.RuleCorrupt.At(name, 0, "", "an Inspect .eval log is a zip archive; %s is not one (give a .json log as inspect.log)", path.Base(name)))
	case f == model.FormatBEIRQrels:
		l.ds.Has[f] = true
		var q QrelsFile
		var fs finding.List
		q, info.Lines, fs, err = ParseBEIRQrels(br, name, l.opt.Limits.MaxLineBytes)
		l.add(fs...)
		l.ds.Qrels = append(l.ds.Qrels, q)
	case f == model.FormatTRECRun:
		l.ds.Has[f] = true
		var run RunFile
		var fs finding.List
		run, info.Lines, fs, err = ParseRun(br, name, l.opt.Limits.MaxLineBytes)
		l.add(fs...)
		l.ds.Runs = append(l.ds.Runs, run)
	case wholeJSON(name, head, complete, f):
		l.ds.Has[f] = true
		info.Lines, err = l.jsonDocument(name, br, f, fc)
	default:
		l.ds.Has[f] = true
		l.reserve(f, estimateLines(head, size))
		info.Lines, err = l.jsonLines(name, br, f, fc)
	}
	if err == nil {
		_, err = io.Copy(io.Discard, br) // hash what the parser did not read
	}
	info.SHA256 = hex.EncodeToString(h.Sum(nil))
	if size <= 0 {
		info.Size = cnt.n
	}
	return info, err
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// wholeJSON reports whether a file is one JSON document rather than JSONL:
// the bundle companions, a .json file, a document whose first line is a
// lone "{" or "[" (pretty-printed), or a complete one-line array. A JSONL
// file whose first line is merely broken stays JSONL, so the lines after it
// are still checked.
func wholeJSON(name string, head []byte, complete bool, f model.Format) bool {
	switch f {
	case model.FormatManifest, model.FormatMeta, model.FormatRunConfig:
		return true
	}
	if strings.EqualFold(path.Ext(name), ".json") {
		return true
	}
	b := bytes.TrimLeft(bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF}), " \t\r\n")
	if len(b) == 0 {
		return false
	}
	first := b
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		first = b[:i]
	}
	first = bytes.TrimSpace(first)
	if string(first) == "{" || string(first) == "[" {
		return true
	}
	if b[0] == '[' && complete {
		v, _ := jsonl.Decode(bytes.TrimSpace(b))
		_, isArr := v.([]any)
		return isArr
	}
	return false
}

func isCompanion(f model.Format) bool {
	return f == model.FormatManifest || f == model.FormatMeta || f == model.FormatRunConfig
}

// jsonLines streams a JSONL file of record format f: each line is prepared
// (decoded, schema-checked, typed; by one worker per core) and committed in
// line order (see lines.go).
func (l *loader) jsonLines(name string, r io.Reader, f model.Format, fc fileCtx) (int, error) {
	records := 0
	file := l.ds.AddFile(name)
	commit := func(p *lineResult) {
		l.add(p.dfs...)
		if !p.ok {
			return
		}
		records++
		if p.fast {
			// read, checked and compacted by the worker (fastB2Line)
			l.ds.B2 = append(l.ds.B2, Rec[model.B2]{Loc: Loc{File: file, Line: uint32(p.n), Off: p.off}, Raw: p.b2raw, V: p.b2, Typed: true})
			return
		}
		l.commitRecord(f, Loc{File: file, Line: uint32(p.n), Off: p.off}, p.m, "", fc, &p.rec)
	}
	var lines int
	var fs finding.List
	var err error
	if workers := lineWorkers(); workers > 0 {
		lines, fs, err = parallelLines(r, name, l.opt.Limits.MaxLineBytes, f, workers, commit)
	} else {
		w := scratchFor(f)
		lines, fs, err = jsonl.LinesAt(r, name, l.opt.Limits.MaxLineBytes, func(n int, off int64, line []byte) {
			p := lineResult{n: n, off: off}
			prepareLine(&p, name, f, line, w)
			commit(&p)
		})
	}
	l.add(fs...)
	if err == nil && records == 0 && len(fs) == 0 && f != model.FormatUnknown {
		l.add(RuleEmpty.At(name, 0, "", "the file holds no records"))
	}
	return lines, err
}

// jsonDocument reads a whole-file JSON document (capped at MaxLineBytes):
// a bundle companion object, a single record, or an array of records.
func (l *loader) jsonDocument(name string, r io.Reader, f model.Format, fc fileCtx) (int, error) {
	max := l.opt.Limits.MaxLineBytes
	if max <= 0 {
		max = jsonl.DefaultMaxLine
	}
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return 0, err
	}
	if int64(len(b)) > max {
		l.add(RuleTooLarge.At(name, 0, "", "the JSON document is larger than %d bytes; it is not parsed", max))
		return 0, nil
	}
	orig := b
	b = bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})
	bomLen := int64(len(orig) - len(b)) // b's offset in the file
	if !utf8.Valid(b) {
		line, col := lineCol(b, jsonl.BadUTF8(b))
		l.add(jsonl.RuleInvalidUTF8.At(name, line, "", "the file is not valid UTF-8 (line %d, column %d)", line, col))
		return 0, nil
	}
	decode := jsonl.DecodeDocument
	if pythonJSON(f) {
		decode = jsonl.DecodeNonFinite
	}
	v, problems, offs := decode(b)
	if v == nil && len(problems) > 0 && !isCompanion(f) && bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("{")) {
		// a .json file that is really JSONL (one object per line)
		first := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			first = b[:i]
		}
		if fv, fp := jsonl.Decode(bytes.TrimSpace(first)); fv != nil && len(fp) == 0 {
			return l.jsonLines(name, bytes.NewReader(orig), f, fc) // Lines drops the BOM itself
		}
		if n, ok := l.jsonStream(name, b, bomLen, f, fc); ok {
			return n, nil
		}
	}
	for _, p := range problems {
		line, col := lineCol(b, p.Col-1)
		msg := p.Msg
		if p.Col > 0 {
			msg = strings.Replace(msg, "column "+strconv.Itoa(p.Col), "column "+strconv.Itoa(col), 1)
		}
		l.add(jsonl.Findings(name, line, []jsonl.Problem{{Kind: p.Kind, Col: col, Pointer: p.Pointer, Msg: msg}})...)
	}
	if v == nil {
		return 0, nil
	}
	// findings about the document's one record point into it: give them
	// the line of the value they name (see Dataset.Locate)
	at := map[string]int{}
	lines := newLineIndex(b)
	for p, off := range jsonl.ValueOffsets(b) {
		at[p], _ = lines.lineCol(len(b), off)
	}
	if l.ds.KeyLines == nil {
		l.ds.KeyLines = map[string]map[string]int{}
	}
	l.ds.KeyLines[name] = at
	if f == model.FormatHELMPerInstance || f == model.FormatHELMStats {
		// a HELM array file is one record: the run's instances or figures
		l.add(formats.Validate(f, v, name, 0, "")...)
		l.ds.Peers = append(l.ds.Peers, peer.HELM(f, name, v))
		return 0, nil
	}
	switch t := v.(type) {
	case map[string]any:
		l.addRecord(f, l.ds.At(name, 0, 0), t, nil, "", fc)
	case []any:
		if f == model.FormatManifest || f == model.FormatMeta || f == model.FormatRunConfig {
			l.add(jsonl.RuleNotObject.At(name, 0, "", "%s must be a JSON object, not an array", path.Base(name)))
			return 0, nil
		}
		for i, e := range t {
			m, ok := e.(map[string]any)
			if !ok {
				line := 0
				if i < len(offs) {
					line, _ = lines.lineCol(len(b), offs[i])
				}
				l.add(jsonl.RuleNotObject.At(name, line, "/"+strconv.Itoa(i), "element %d is a JSON %s, not an object", i, jsonl.TypeName(e)))
				continue
			}
			line := 0
			if i < len(offs) {
				line, _ = lines.lineCol(len(b), offs[i])
			}
			l.addRecord(f, l.ds.At(name, line, lines.start(line, bomLen)), m, nil, "/"+strconv.Itoa(i), fc)
		}
	default:
		l.add(jsonl.RuleNotObject.At(name, 0, "", "the file holds a JSON %s, not an object or an array of objects", jsonl.TypeName(v)))
	}
	return 0, nil
}

// jsonStream reads a file of pretty-printed objects one after another (seed
// 004 prints its item examples that way): each object is a record located
// at the line where it starts, and the file gets one jsonl.multiline
// warning. A syntax error is one finding at its own line; reading resumes
// at the next line that starts with "{", so the records after it are still
// checked. ok is false when b is not such a stream (fewer than two objects,
// or a value that is not an object): the caller then reports b as one
// broken document.
// base is b's offset in the file (a byte order mark before it).
func (l *loader) jsonStream(name string, b []byte, base int64, f model.Format, fc fileCtx) (lines int, ok bool) {
	type rec struct {
		v     map[string]any
		start int
		dups  []jsonl.Problem
	}
	vals, starts, dups, syntax := jsonl.DecodeStreamAll(b)
	var recs []rec
	for i, v := range vals {
		m, isObj := v.(map[string]any)
		if !isObj {
			return 0, false
		}
		recs = append(recs, rec{m, starts[i], dups[i]})
	}
	if len(recs)+len(syntax) < 2 || len(recs) == 0 {
		return 0, false
	}
	first, _ := lineCol(b, recs[0].start)
	msg := fmt.Sprintf("the file holds %d pretty-printed record(s)", len(recs))
	if len(recs) > 1 {
		second, _ := lineCol(b, recs[1].start)
		msg += fmt.Sprintf(" (the second starts at line %d)", second)
	}
	l.add(jsonl.RuleMultiline.At(name, first, "", "%s; JSONL has one record per line", msg))
	index := newLineIndex(b)
	relocate := func(p jsonl.Problem) {
		pl, col := index.lineCol(len(b), p.Col-1)
		m := strings.Replace(p.Msg, "column "+strconv.Itoa(p.Col), "column "+strconv.Itoa(col), 1)
		l.add(jsonl.Findings(name, pl, []jsonl.Problem{{Kind: p.Kind, Col: col, Pointer: p.Pointer, Msg: m}})...)
	}
	for _, p := range syntax {
		relocate(p)
	}
	for _, r := range recs {
		for _, p := range r.dups {
			relocate(p)
		}
		line, _ := index.lineCol(len(b), r.start)
		l.addRecord(f, l.ds.At(name, line, index.start(line, base)), r.v, nil, "", fc)
	}
	return 1 + bytes.Count(bytes.TrimRight(b, "\n"), []byte("\n")), true
}

// lineIndex holds the byte offset of every line start of a file, so that
// locating many values costs a binary search each instead of a scan from the
// start of the file (which made a one-line document of n values O(n²)).
type lineIndex []int

func newLineIndex(b []byte) lineIndex {
	x := lineIndex{0}
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return x
		}
		i += j + 1
		x = append(x, i)
	}
}

// start is the file offset of the start of 1-based line n (n ≥ 1) of b,
// which starts at base in the file (after a byte order mark, which line 1
// starts with).
func (x lineIndex) start(n int, base int64) int64 {
	if n == 1 {
		return 0
	}
	return base + int64(x[n-1])
}

// lineCol is lineCol(b, off) for the b x was built from.
func (x lineIndex) lineCol(n, off int) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off > n {
		off = n
	}
	// the last line start <= off
	i := sort.SearchInts(x, off+1) - 1
	return i + 1, off - x[i] + 1
}

// lineCol converts a byte offset of a document to a 1-based line and column.
func lineCol(b []byte, off int) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off > len(b) {
		off = len(b)
	}
	line = 1 + bytes.Count(b[:off], []byte("\n"))
	col = off - bytes.LastIndexByte(b[:off], '\n')
	return line, col
}

// addRecord schema-checks one record and appends it, typed, to its slice.
// line is the record's JSON text (nil: re-encode raw); prefix is the pointer
// of the record inside its file (array element).
func (l *loader) addRecord(f model.Format, loc Loc, raw map[string]any, line []byte, prefix string, fc fileCtx) {
	var p prepared
	prepareRecord(&p, f, l.ds.Path(loc), int(loc.Line), raw, line, prefix, true)
	l.commitRecord(f, loc, raw, prefix, fc, &p)
}

// commitRecord adds a prepared record (prepareRecord): its schema findings,
// the record in its slice, and a finding when its typed decode failed.
func (l *loader) commitRecord(f model.Format, loc Loc, raw map[string]any, prefix string, fc fileCtx, p *prepared) {
	sfs := p.sfs
	l.add(sfs...)
	if peerFormat(f) {
		l.peerRecord(f, loc, raw)
		return
	}
	if p.skip {
		return
	}
	var derr error
	switch f {
	case model.FormatItem:
		derr = appendRec(&l.ds.Items, loc, raw, p)
	case model.FormatResult:
		derr = appendRec(&l.ds.Results, loc, raw, p)
	case model.FormatAtom:
		derr = appendRec(&l.ds.Atoms, loc, raw, p)
	case model.FormatB2:
		derr = appendRec(&l.ds.B2, loc, raw, p)
	case model.FormatCorpusManifest:
		derr = appendRec(&l.ds.Corpus, loc, raw, p)
	case model.FormatSources:
		derr = appendRec(&l.ds.Sources, loc, raw, p)
	case model.FormatV2Question:
		derr = appendRec(&l.ds.V2, loc, raw, p)
	case model.FormatClause:
		derr = appendRec(&l.ds.Clauses, loc, raw, p)
	case model.FormatVerdict:
		derr = appendRec(&l.ds.Verdicts, loc, raw, p)
	case model.FormatRAGQuestion:
		derr = appendRec(&l.ds.RAG, loc, raw, p)
	case model.FormatRAGDocument:
		derr = appendRec(&l.ds.Documents, loc, raw, p)
	case model.FormatRAGPage:
		derr = appendRec(&l.ds.Pages, loc, raw, p)
	case model.FormatRAGChunk:
		derr = appendRec(&l.ds.Chunks, loc, raw, p)
	case model.FormatRAGJudgment:
		derr = appendRec(&l.ds.Judgments, loc, raw, p)
	case model.FormatRAGErrors:
		derr = appendRec(&l.ds.Errors, loc, raw, p)
	case model.FormatRAGGrades:
		derr = appendRec(&l.ds.Grades, loc, raw, p)
	case model.FormatRAGPrediction:
		derr = appendRec(&l.ds.Preds, loc, raw, p)
		if p := &l.ds.Preds[len(l.ds.Preds)-1]; p.Typed && p.V.RunID == "" {
			p.V.RunID = runName(l.ds.Path(loc), fc)
		}
	case model.FormatRAGConfig:
		l.ds.Configs = append(l.ds.Configs, Rec[model.RAGConfig]{Loc: loc, Raw: raw, V: model.RAGConfig(raw), Typed: true})
	case model.FormatRAGMetrics:
		l.ds.Metrics = append(l.ds.Metrics, Rec[model.RAGMetrics]{Loc: loc, Raw: raw, V: model.RAGMetrics(raw), Typed: true})
	case model.FormatManifest, model.FormatMeta, model.FormatRunConfig:
		// bundle companions given as top-level files: checked, kept on a
		// pseudo-bundle so rules can see them
		l.companion(f, loc, raw, p.line)
	}
	l.compact(f)
	if derr != nil && len(sfs) == 0 {
		ptr, what := decodeProblem(raw, derr)
		l.add(RuleDecode.At(l.ds.Path(loc), int(loc.Line), prefix+ptr, "%s, so the record is left out of checks and scores (%s)", what, f))
	}
}

// bareRetrieved rewrites a result's "retrieved" list so that bare id strings
// become {"id": s} objects before the typed decode: results.jsonl allows
// both spellings (model.Retrieved), the struct has one. Raw keeps what the
// file says.
func bareRetrieved(raw map[string]any, line []byte) []byte {
	list, ok := raw["retrieved"].([]any)
	if !ok {
		return line
	}
	bare := false
	for _, e := range list {
		if _, ok := e.(string); ok {
			bare = true
			break
		}
	}
	if !bare {
		return line
	}
	conv := make([]any, len(list))
	for i, e := range list {
		if s, ok := e.(string); ok {
			conv[i] = map[string]any{"id": s}
		} else {
			conv[i] = e
		}
	}
	cp := make(map[string]any, len(raw))
	for k, v := range raw {
		cp[k] = v
	}
	cp["retrieved"] = conv
	b, err := json.Marshal(cp)
	if err != nil {
		return line
	}
	return b
}

// runName is a prediction file's default run id: the runs/<name>/ folder,
// else the parent folder of a predictions.jsonl, else the file's base name.
func runName(p string, fc fileCtx) string {
	if fc.run != "" {
		return fc.run
	}
	if i := strings.LastIndexByte(p, '!'); i >= 0 {
		p = p[i+1:]
	}
	p = strings.ReplaceAll(p, "\\", "/")
	base := path.Base(p)
	if strings.EqualFold(base, "predictions.jsonl") {
		if dir := path.Base(path.Dir(p)); dir != "." && dir != "/" {
			return dir
		}
	}
	return strings.TrimSuffix(base, path.Ext(base))
}

// decodeRec decodes line into a T with encoding/json (the typed view; it
// keeps the last of duplicate keys, as the generic decoder does); the error
// says why it failed (the T then holds what was decoded before).
func decodeRec[T any](raw map[string]any, line []byte) (*T, error) {
	v := new(T)
	err := json.Unmarshal(line, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && strings.HasPrefix(te.Value, "number") {
		// An integer written as 10.0 or 1e2 is an integer for JSON Schema
		// (and Python writers produce it): decode it as one, rather than
		// drop the record. A fraction still fails.
		v2 := new(T)
		if b, ok := integralNumbers(raw); ok && json.Unmarshal(b, v2) == nil {
			v, err = v2, nil
		}
	}
	return v, err
}

// appendRec appends a prepared record; Typed is false when its typed decode
// failed.
func appendRec[T any](dst *[]Rec[T], loc Loc, raw map[string]any, p *prepared) error {
	r := Rec[T]{Loc: loc, Raw: raw}
	if v, ok := p.typed.(*T); ok {
		r.V = *v
	}
	r.Typed = p.derr == nil
	*dst = append(*dst, r)
	return p.derr
}

// integralNumbers returns raw as JSON with every number that has a zero
// fraction (10.0, 1e2, -0.0) written as an integer; ok is false when there
// is none.
func integralNumbers(raw map[string]any) ([]byte, bool) {
	changed := false
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				out[k] = walk(e)
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = walk(e)
			}
			return out
		case json.Number:
			if !strings.ContainsAny(string(x), ".eE") {
				return x
			}
			f, err := x.Float64()
			if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
				return x
			}
			changed = true
			return json.Number(strconv.FormatInt(int64(f), 10))
		}
		return v
	}
	v := walk(raw)
	if !changed {
		return nil, false
	}
	b, err := json.Marshal(v)
	return b, err == nil
}

// companion stores a manifest/meta/run_config record on the current bundle
// (set by l.bundle) or, for a top-level file, on a pseudo-bundle named after
// the file's folder.
func (l *loader) companion(f model.Format, loc Loc, raw map[string]any, line []byte) {
	b := l.companionBundle(l.ds.Path(loc))
	switch f {
	case model.FormatManifest:
		r := &Rec[model.Manifest]{Loc: loc, Raw: raw}
		r.Typed = json.Unmarshal(normalizeManifest(raw), &r.V) == nil
		b.Manifest = r
	case model.FormatMeta:
		r := &Rec[model.Meta]{Loc: loc, Raw: raw}
		r.Typed = json.Unmarshal(normalizeMeta(raw), &r.V) == nil
		r.V.Extra = extraKeys(raw, "name", "description", "version_hash", "version", "license")
		b.Meta = r
	case model.FormatRunConfig:
		r := &Rec[model.RunConfig]{Loc: loc, Raw: raw}
		r.Typed = json.Unmarshal(line, &r.V) == nil
		b.RunConfig = r
	}
}

func extraKeys(raw map[string]any, known ...string) map[string]any {
	out := map[string]any{}
	for k, v := range raw {
		isKnown := false
		for _, kk := range known {
			if k == kk {
				isKnown = true
			}
		}
		if !isKnown {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// companionBundle returns the bundle a companion file belongs to: the
// bundle being read (path "x.zip!manifest.json"), else a pseudo-bundle for
// a top-level manifest.json / meta.json given on its own.
func (l *loader) companionBundle(p string) *Bundle {
	key := p
	if i := strings.LastIndexByte(p, '!'); i >= 0 {
		key = p[:i]
	} else {
		key = path.Dir(strings.ReplaceAll(p, "\\", "/"))
	}
	for _, b := range l.ds.Bundles {
		if b.Path == key {
			return b
		}
	}
	b := &Bundle{Path: key, SHA256: map[string]string{}}
	l.ds.Bundles = append(l.ds.Bundles, b)
	return b
}

// bundle reads one .eval752.zip.
// resultsBundle reports whether a zip's entries are those of eval752's
// results bundle: all under eval752-results/, its manifest.json among them.
func resultsBundle(es []*bundle.Entry) bool {
	const dir = "eval752-results/"
	manifest := false
	for _, e := range es {
		n := bundle.Clean(e.Name)
		if !strings.HasPrefix(n, dir) && n+"/" != dir {
			return false
		}
		manifest = manifest || n == dir+"manifest.json"
	}
	return manifest
}

func (l *loader) bundle(name string, r io.ReaderAt, size int64) error {
	l.reading = name
	l.ds.Has[model.FormatBundle] = true
	lim := l.opt.Limits
	a, oerr := bundle.Open(name, r, size, bundle.Limits{
		MaxEntries: lim.MaxEntries, MaxEntryBytes: lim.MaxEntryBytes,
		MaxTotalBytes: lim.MaxTotalBytes, MaxRatio: lim.MaxRatio,
	})
	info := InputInfo{Path: name, Format: model.FormatBundle, Size: size}
	b := &Bundle{Path: name, SHA256: map[string]string{}}
	l.ds.Bundles = append(l.ds.Bundles, b)
	defer func() {
		l.add(a.Findings...)
	}()
	// the whole file's hash, read through ReadAt in blocks
	sum, herr := hashReaderAt(l.ctx, r, size)
	info.SHA256 = sum
	l.ds.Inputs = append(l.ds.Inputs, info)
	if herr != nil {
		return fmt.Errorf("%s: %w", name, herr)
	}
	if oerr != nil {
		return nil // reported as zip.corrupt
	}
	if formats.InspectEntries(entryNames(a.Entries)) {
		l.ds.Inputs[len(l.ds.Inputs)-1].Format = model.FormatInspectEval
		l.ds.Bundles = l.ds.Bundles[:len(l.ds.Bundles)-1]
		l.ds.Has[model.FormatInspectEval] = true
		if len(l.ds.Bundles) == 0 {
			delete(l.ds.Has, model.FormatBundle)
		}
		return l.inspectEval(name, a)
	}
	if resultsBundle(a.Entries) {
		// eval752's own output, e.g. written into the folder it checks
		l.ds.Bundles = l.ds.Bundles[:len(l.ds.Bundles)-1]
		l.add(RuleResultsBundle.At(name, 0, "", "%s is an eval752 results bundle (eval752-results/manifest.json); its reports are outputs, not inputs, and are not read", name))
		return nil
	}

	// manifest first: its files[].format may force sections' formats
	root := nestedRoot(a.Entries)
	if root != "" {
		l.add(RuleNestedRoot.At(name, 0, "", "every file of the bundle is inside the folder %q; it is read as the bundle root", root))
	}
	rel := func(e *bundle.Entry) string { return strings.TrimPrefix(bundle.Clean(e.Name), root) }
	order := make([]*bundle.Entry, 0, len(a.Entries))
	for _, e := range a.Entries {
		b.Entries = append(b.Entries, relName(e.Name, root))
		if rel(e) == "manifest.json" {
			order = append([]*bundle.Entry{e}, order...)
		} else {
			order = append(order, e)
		}
	}
	forcedFmt := map[string]model.Format{}
	sawManifest, sawMeta := false, false
	var osFiles []string
	for _, e := range order {
		if err := l.ctx.Err(); err != nil {
			return err
		}
		if e.Dir {
			continue
		}
		key := relName(e.Name, root) // the name the version hash and asset references use
		if !e.Safe {
			b.Unread = append(b.Unread, key)
			continue
		}
		clean := rel(e)
		full := a.Full(e.Name)
		kind, fc := classify(clean)
		if osMetadata(e.Name) {
			osFiles = append(osFiles, e.Name)
			kind = entryRaw // hashed (the find | sha256sum recipe sees it too), not read
		}
		if _, ok := forcedFmt[clean]; ok {
			kind = entryParse // the manifest names its format
		}
		rd, err := a.OpenEntry(e)
		if err != nil {
			b.Unread = append(b.Unread, key)
			continue // reported
		}
		switch kind {
		case entryAsset, entryChecker, entryRaw, entryUnknown:
			if kind == entryUnknown {
				l.add(bundle.RuleUnknownEntry.At(full, 0, "", "entry %q is outside the bundle layout (manifest.json, meta.json, run_config.json, results.jsonl, sections/, assets/, checkers/, corpus/, runs/)", e.Name))
			}
			derr := rd.Drain()
			if derr == nil && rd.Complete() {
				b.SHA256[key] = rd.SHA256()
			} else if l.ctx.Err() != nil {
				return l.ctx.Err()
			} else {
				b.Unread = append(b.Unread, key)
			}
			asset := Asset{Path: clean, Full: full, Size: rd.Size()}
			switch kind {
			case entryAsset:
				b.Assets = append(b.Assets, asset)
			case entryChecker:
				b.Checkers = append(b.Checkers, asset)
			}
			continue
		}
		forced := forcedFmt[clean]
		switch clean {
		case "manifest.json":
			forced, sawManifest = model.FormatManifest, true
		case "meta.json":
			forced, sawMeta = model.FormatMeta, true
		case "run_config.json":
			forced = model.FormatRunConfig
		}
		info, ferr := l.file(full, rd, int64(e.File.UncompressedSize64), forced, fc)
		rd.Close()
		if rd.Err() == nil && ferr == nil {
			b.SHA256[key] = info.SHA256
		} else {
			b.Unread = append(b.Unread, key)
		}
		info.Size = rd.Size()
		l.ds.Inputs = append(l.ds.Inputs, info)
		if ferr != nil && rd.Err() == nil {
			if l.ctx.Err() != nil {
				return l.ctx.Err()
			}
			return fmt.Errorf("%s: %w", full, ferr)
		}
		if strings.HasPrefix(clean, "sections/") {
			b.Sections = append(b.Sections, full)
		}
		if clean == "manifest.json" && b.Manifest != nil {
			for _, mf := range b.Manifest.V.Files {
				if mf.Format == "" {
					continue
				}
				if formats.Known(model.Format(mf.Format)) {
					forcedFmt[bundle.Clean(mf.Path)] = model.Format(mf.Format)
				} else {
					l.add(formats.RuleBadForced.At(full, 0, "/files", "files[] entry %q names unknown format %q", mf.Path, mf.Format))
				}
			}
		}
	}
	if len(osFiles) > 0 {
		l.add(RuleOSMetadata.At(name, 0, "", "%d file(s) added by the operating system when zipping (first: %q) are not read", len(osFiles), osFiles[0]))
	}
	sort.Strings(b.Sections)
	if !sawManifest && !sawMeta && !strings.HasSuffix(strings.ToLower(name), ".eval752.zip") {
		// a plain zip of a project folder (seed 003 §10's data/, eval/,
		// runs/): its files are read, but it is not an eval752 bundle
		l.add(RuleZipFolder.At(name, 0, "", "%s has no manifest.json or meta.json: it is read as a zipped folder of files, not as an eval752 bundle", path.Base(name)))
		return nil
	}
	if !sawManifest {
		l.add(RuleMissingManifest.At(name, 0, "", "the bundle has no manifest.json at its root"))
	}
	if !sawMeta {
		l.add(RuleMissingMeta.At(name, 0, "", "the bundle has no meta.json at its root"))
	}
	refused := slices.ContainsFunc(b.Unread, func(e string) bool { return strings.HasPrefix(e, "sections/") })
	if len(b.Sections) == 0 && !refused && (b.Manifest == nil || manifestKind(b.Manifest) != "results") {
		// (a section refused by the zip checks has its own finding)
		l.add(RuleNoSections.At(name, 0, "", "the bundle has no sections/*.jsonl"))
	}
	return nil
}

// nestedRoot detects a bundle zipped with its folder ("geo/manifest.json",
// "geo/sections/a.jsonl"), as "Compress folder" tools do: when nothing of the
// layout is at the root and every entry (other than __MACOSX/ metadata) is
// under one folder that holds manifest.json, meta.json or sections/, that
// folder is the root. It returns "" or the folder with its slash.
// osMetadata reports whether a zip entry is a file the operating system
// adds when zipping: macOS's __MACOSX/ folder, AppleDouble "._x" files and
// .DS_Store, Windows' Thumbs.db and desktop.ini.
func osMetadata(name string) bool {
	n := strings.TrimSuffix(bundle.Clean(name), "/")
	if n == "__MACOSX" || strings.HasPrefix(n, "__MACOSX/") {
		return true
	}
	base := path.Base(n)
	switch base {
	case ".DS_Store", "Thumbs.db", "desktop.ini":
		return true
	}
	return strings.HasPrefix(base, "._")
}

func nestedRoot(es []*bundle.Entry) string {
	root := ""
	hasLayout := false
	for _, e := range es {
		n := bundle.Clean(e.Name)
		if osMetadata(n) {
			continue
		}
		top, rest, ok := strings.Cut(n, "/")
		if !ok {
			if e.Dir {
				continue
			}
			return "" // a file at the root
		}
		if root == "" {
			root = top
		} else if top != root {
			return ""
		}
		if rest == "manifest.json" || rest == "meta.json" || strings.HasPrefix(rest, "sections/") {
			hasLayout = true
		}
	}
	if !hasLayout {
		return ""
	}
	return root + "/"
}

// relName is an entry's name relative to the bundle root (unchanged unless
// the bundle has a nested root).
func relName(name, root string) string {
	if root == "" {
		return name
	}
	return strings.TrimPrefix(bundle.Clean(name), root)
}

func manifestKind(m *Rec[model.Manifest]) string {
	if k := NormalizeKind(m.V.Kind); k != "" {
		return k
	}
	return NormalizeKind(m.V.Type)
}

type entryKind int

const (
	entryParse   entryKind = iota // a record file: parse it
	entryAsset                    // assets/…
	entryChecker                  // checkers/…
	entryRaw                      // corpus/ or runs/ file that is not a record file (a PDF, an image): hashed only
	entryUnknown                  // outside the layout
)

// parseable are the extensions of record files inside corpus/ and runs/.
var parseable = map[string]bool{".jsonl": true, ".json": true, ".yaml": true, ".yml": true, ".tsv": true, ".qrels": true, ".run": true, ".trec": true, ".txt": false}

// classify places a (cleaned) entry name in the bundle layout.
func classify(name string) (entryKind, fileCtx) {
	switch name {
	case "manifest.json", "meta.json", "run_config.json":
		return entryParse, fileCtx{}
	case "results.jsonl":
		return entryParse, fileCtx{defaultFmt: model.FormatResult}
	}
	top, rest, _ := strings.Cut(name, "/")
	ext := strings.ToLower(path.Ext(name))
	switch top {
	case "sections":
		return entryParse, fileCtx{}
	case "assets":
		return entryAsset, fileCtx{}
	case "checkers":
		return entryChecker, fileCtx{}
	case "corpus", "data", "eval":
		// corpus/ is eval752's companion folder; data/ and eval/ are the
		// folders of seed 003 §10's layout, read the same way
		if parseable[ext] || isTRECName(name) {
			return entryParse, fileCtx{optional: true}
		}
		return entryRaw, fileCtx{}
	case "runs":
		run, _, _ := strings.Cut(rest, "/")
		if parseable[ext] || isTRECName(name) {
			return entryParse, fileCtx{run: run, optional: true}
		}
		return entryRaw, fileCtx{run: run}
	}
	return entryUnknown, fileCtx{}
}

// seed003Unread are files of seed 003 §10's layout that eval752 does not
// read (run outputs and manifests of the pipeline): given, they are noted,
// not an unknown format.
var seed003Unread = map[string]bool{
	"anchor_resolution.jsonl":    true,
	"judgment_set_manifest.json": true, "raw_manifest.jsonl": true, "tables.jsonl": true,
	"evidence_groups.jsonl": true,
}

// looseCtx is what a top-level file's path says about it, as a bundle
// entry's place does (classify): a file directly in a runs/<name>/ folder
// belongs to run <name>; files under corpus/, data/, eval/ or runs/, and
// seed 003's pipeline files, may be of a format eval752 does not read.
func looseCtx(name string) fileCtx {
	p := strings.ReplaceAll(name, "\\", "/")
	var fc fileCtx
	if run, ok := runFolder(p); ok {
		fc.run, fc.optional = run, true
	}
	for _, part := range strings.Split(path.Dir(p), "/") {
		switch part {
		case "corpus", "data", "eval", "runs":
			fc.optional = true
		}
	}
	if seed003Unread[strings.ToLower(path.Base(p))] {
		fc.optional = true
	}
	return fc
}

// runFolder returns <name> when p is a file directly inside a runs/<name>/
// folder.
func runFolder(p string) (string, bool) {
	d := path.Dir(p)
	if path.Base(path.Dir(d)) != "runs" {
		return "", false
	}
	name := path.Base(d)
	return name, name != "" && name != "." && name != "/"
}

func isTRECName(name string) bool {
	b := strings.ToLower(path.Base(name))
	return strings.HasPrefix(b, "qrels") || strings.HasPrefix(b, "run")
}

// hashReaderAt hashes size bytes of r in 1 MiB blocks.
func hashReaderAt(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	var h hash.Hash = sha256.New()
	_, err := io.Copy(h, ctxReader{ctx, io.NewSectionReader(r, 0, size)})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
