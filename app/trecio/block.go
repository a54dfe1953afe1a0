package trecio

import (
	"bytes"
	"io"
	"slices"
	"unicode/utf8"
	"unsafe"

	"eval752/app/jsonl"
)

// Block is a run of whole lines of a file, as Reader.Next cut it.
type Block struct {
	Seq    int    // 0 for the file's first block
	Offset int64  // byte offset of Data[0] in the file
	Data   []byte // whole lines; the last may lack '\n' only at the end of the file
	// Long > 0: the block stands for one line longer than the line cap,
	// skipped without being held (Data is empty); Long is its size in
	// bytes with its terminator.
	Long int64
}

// Reader cuts a reader into blocks of whole lines. It only finds line
// ends, so the blocks can be split into lines and parsed on any number of
// goroutines (Lines, ParseRun, QrelsParser) and put back in order by Seq.
type Reader struct {
	r       io.Reader
	size    int
	maxLine int64
	carry   []byte // the partial last line read after the previous block
	eof     bool
	done    bool
	off     int64
	seq     int
}

// NewReader reads r in blocks of about size bytes. maxLine > 0 is the line
// cap of Strict reading (jsonl.Lines's rule: a line longer than maxLine+2
// bytes with its terminator is skipped without being held: a Long block);
// maxLine ≤ 0 holds a line of any length (Lenient, as trec_eval).
func NewReader(r io.Reader, size int, maxLine int64) *Reader {
	return &Reader{r: r, size: size, maxLine: maxLine}
}

// Next returns the next block, read into buf's capacity (buf's contents are
// discarded; Data is a larger allocation when one line needs more than
// cap(buf) bytes). At the end of the input it returns io.EOF; an error of r
// ends the reading.
func (rd *Reader) Next(buf []byte) (Block, error) {
	if rd.done {
		return Block{}, io.EOF
	}
	data := append(buf[:0], rd.carry...)
	rd.carry = rd.carry[:0]
	if cap(data) < rd.size {
		data = slices.Grow(data, rd.size-len(data))
	}
	// readMore reads once into data's spare capacity.
	readMore := func() error {
		k, err := rd.r.Read(data[len(data):cap(data)])
		data = data[:len(data)+k]
		if err == io.EOF {
			rd.eof = true
			return nil
		}
		return err
	}
	// data[:scanned] is known to hold no '\n' (one line longer than the
	// buffer, being read on): only the bytes read since are searched, so a
	// long line read in small pieces (a pipe gives at most 64 KiB a read)
	// costs linear time, not one scan of the whole line per read.
	scanned := 0
	for {
		// Fill the buffer to a block (or the end of the file).
		for !rd.eof && len(data) < rd.size {
			if len(data) == cap(data) {
				data = double(data)
			}
			if err := readMore(); err != nil {
				return Block{}, err
			}
		}
		if rd.eof {
			rd.done = true
			if len(data) == 0 {
				return Block{}, io.EOF
			}
			return rd.block(data, 0), nil
		}
		cut := bytes.LastIndexByte(data[scanned:], '\n')
		if cut >= 0 {
			cut += scanned
			rd.carry = append(rd.carry, data[cut+1:]...)
			return rd.block(data[:cut+1], 0), nil
		}
		scanned = len(data)
		// One line longer than the buffer: read on while it may still be
		// a valid line, else skip it.
		if rd.maxLine <= 0 || int64(len(data)) <= rd.maxLine+2 {
			if len(data) == cap(data) {
				data = double(data)
			}
			if err := readMore(); err != nil {
				return Block{}, err
			}
			continue
		}
		size := int64(len(data))
		for {
			data = data[:cap(data)]
			k, err := rd.r.Read(data)
			data = data[:k]
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				size += int64(i + 1)
				rd.carry = append(rd.carry, data[i+1:]...)
				break
			}
			size += int64(k)
			if err == io.EOF {
				rd.eof = true
				break
			} else if err != nil {
				return Block{}, err
			}
		}
		if rd.eof && len(rd.carry) == 0 {
			rd.done = true
		}
		return rd.block(nil, size), nil
	}
}

// double is data in a new buffer of twice its capacity. (slices.Grow
// would leave append's growth, about 2.5× for large slices: a 60 MiB line
// held in a 119 MiB buffer after a 48 MiB one, 189 MiB live at the peak
// where doubling needs 96.)
func double(data []byte) []byte {
	n := make([]byte, len(data), 2*max(cap(data), 512))
	copy(n, data)
	return n
}

func (rd *Reader) block(data []byte, long int64) Block {
	b := Block{Seq: rd.seq, Offset: rd.off, Data: data, Long: long}
	rd.seq++
	rd.off += int64(len(data)) + long
	return b
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// Lines iterates over the lines of a block in the given mode:
//
//   - Strict: jsonl.Lines's rules — "\n" or "\r\n" ends a line, a UTF-8 BOM
//     is cut from line 1 of the file, lines of only spaces, tabs and CRs
//     are skipped, and a line longer than maxLine bytes or not UTF-8 is an
//     Issue (TooLongRead, TooLong, BadUTF8).
//   - Lenient: trec_eval's — a line is everything up to '\n', passed on
//     whole (a CR stays in it; isspace splits it off); blank and comment
//     lines are left to ParseRun / QrelsParser, which skip them.
type Lines struct {
	mode    Mode
	maxLine int64
	data    []byte
	first   bool
	off     int64
	rel     int64
	long    int64
	// after Next: the line (Line), its 1-based number in the block (Rel),
	// its byte offset in the file (Offset), and a Bad line's Issue.
	Line   []byte
	Rel    int64
	Offset int64
	Issue  Issue
}

// Lines returns an iterator over b's lines (maxLine: Strict's line cap,
// DefaultMaxLine when ≤ 0; Lenient has none).
func (b *Block) Lines(m Mode, maxLine int64) Lines {
	if m == Strict && maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	return Lines{mode: m, maxLine: maxLine, data: b.Data, first: b.Seq == 0, off: b.Offset, long: b.Long}
}

// Next moves to the next line: OK with a line in Line, Bad with an Issue
// (Line and Offset set; Line is within the block), false at the block's
// end (Count is then the number of lines in the block).
func (it *Lines) Next() (Status, bool) {
	if it.long > 0 {
		it.rel, it.Rel, it.Offset = 1, 1, it.off
		it.Issue = Issue{Line: 1, Offset: it.off, Problem: TooLongRead, Mode: it.mode, N: it.long, maxLine: it.maxLine}
		it.long = 0
		return Bad, true
	}
	for len(it.data) > 0 {
		var line []byte
		size := 0
		if i := bytes.IndexByte(it.data, '\n'); i >= 0 {
			line, size = it.data[:i], i+1
		} else {
			line, size = it.data, len(it.data)
		}
		it.data = it.data[size:]
		it.rel++
		off := it.off
		it.off += int64(size)
		it.Rel, it.Offset, it.Line = it.rel, off, line
		if it.mode == Lenient {
			return OK, true
		}
		bad := func(p Problem, n int64) (Status, bool) {
			it.Issue = Issue{Line: it.rel, Offset: off, Problem: p, Mode: it.mode, N: n, maxLine: it.maxLine}
			return Bad, true
		}
		if int64(size) > it.maxLine+2 {
			return bad(TooLongRead, int64(size))
		}
		if k := len(line); k > 0 && line[k-1] == '\r' {
			line = line[:k-1]
		}
		if it.rel == 1 && it.first {
			line = bytes.TrimPrefix(line, bom)
		}
		if int64(len(line)) > it.maxLine {
			return bad(TooLong, int64(len(line)))
		}
		if jsonl.Blank(line) {
			continue
		}
		if !ascii(line) && !utf8.Valid(line) {
			return bad(BadUTF8, int64(jsonl.BadUTF8(line)+1))
		}
		it.Line = line
		return OK, true
	}
	return OK, false
}

// Count is the number of lines the iterator has passed (all of the
// block's once Next returned false).
func (it *Lines) Count() int64 { return it.rel }

// View views b as a string without copying, for a parse that does not keep
// it: the callers only do this on buffers that are never written again while
// the string is in use (a block's data, a line being parsed).
func View(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// DefaultMaxLine is Strict's line cap when a caller passes 0: jsonl's.
const DefaultMaxLine = 64 << 20

// ScanBlock is the block size of Scan.
const ScanBlock = 1 << 20

// Scan reads r to the end, one block at a time on the calling goroutine,
// and calls line for every line Lines passes on (n its 1-based number in
// the file, off its byte offset) and issue for every line Lines refuses
// (Line is the number in the file). lines is the number of lines read; err
// is an error of r, after which reading stops.
func Scan(r io.Reader, m Mode, maxLine int64, line func(n, off int64, b []byte), issue func(is *Issue)) (lines int64, err error) {
	if m == Strict && maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	rd := NewReader(r, ScanBlock, maxLine)
	var buf []byte
	for {
		b, err := rd.Next(buf)
		if err == io.EOF {
			return lines, nil
		}
		if err != nil {
			return lines, err
		}
		it := b.Lines(m, maxLine)
		for {
			st, ok := it.Next()
			if !ok {
				break
			}
			if st == Bad {
				it.Issue.Line += lines
				issue(&it.Issue)
				continue
			}
			line(lines+it.Rel, it.Offset, it.Line)
		}
		lines += it.Count()
		if b.Data != nil {
			buf = b.Data[:0]
		}
	}
}
