package bundle

import (
	"archive/zip"
	"bufio"
	"encoding/binary"
	"io"
	"sort"
)

// Zip record layout (APPNOTE 4.3): the fixed parts this file reads.
const (
	sigDirEnd     = 0x06054b50 // end of central directory
	sigDir64Loc   = 0x07064b50 // zip64 end of central directory locator
	sigDir64End   = 0x06064b50 // zip64 end of central directory
	sigDirHeader  = 0x02014b50 // central directory file header
	dirEndLen     = 22
	dir64LocLen   = 20
	dir64EndLen   = 56
	dirHeaderLen  = 46
	localHeadLen  = 30 // fixed part of a local file header
	zip64ExtraTag = 0x0001
)

// headerOffsets reads the local header offset of every central directory
// entry, the one field archive/zip does not export, following archive/zip's
// own reading of the directory (end record, zip64 records, base offset of
// a zip with data in front). Only the central directory is read, no entry
// data. ok is false when the reading does not agree entry for entry (name
// and compressed size) with files, archive/zip's list; the caller then has
// no offsets to check.
func headerOffsets(r io.ReaderAt, size int64, files []*zip.File) (offs []int64, ok bool) {
	le := binary.LittleEndian
	// the end record: the last signature in the last 65 KiB whose comment fits
	bLen := min(size, 65*1024)
	buf := make([]byte, bLen)
	if _, err := r.ReadAt(buf, size-bLen); err != nil && err != io.EOF {
		return nil, false
	}
	p := -1
	for i := len(buf) - dirEndLen; i >= 0; i-- {
		if le.Uint32(buf[i:]) == sigDirEnd {
			if n := int(le.Uint16(buf[i+20:])); n+dirEndLen+i > len(buf) {
				return nil, false
			}
			p = i
			break
		}
	}
	if p < 0 {
		return nil, false
	}
	endOff := size - bLen + int64(p)
	e := buf[p:]
	records, dirSize, dirOff := uint64(le.Uint16(e[10:])), uint64(le.Uint32(e[12:])), uint64(le.Uint32(e[16:]))
	if records == 0xffff || dirSize == 0xffff || dirOff == 0xffffffff {
		if loc := endOff - dir64LocLen; loc >= 0 {
			lb := make([]byte, dir64LocLen)
			if _, err := r.ReadAt(lb, loc); err != nil {
				return nil, false
			}
			if le.Uint32(lb) == sigDir64Loc && le.Uint32(lb[4:]) == 0 && le.Uint32(lb[16:]) == 1 {
				p64 := int64(le.Uint64(lb[8:]))
				eb := make([]byte, dir64EndLen)
				if p64 < 0 || p64 > size {
					return nil, false
				}
				if _, err := r.ReadAt(eb, p64); err != nil || le.Uint32(eb) != sigDir64End {
					return nil, false
				}
				endOff = p64
				records, dirSize, dirOff = le.Uint64(eb[32:]), le.Uint64(eb[40:]), le.Uint64(eb[48:])
			}
		}
	}
	const maxInt64 = 1<<63 - 1
	if dirSize > maxInt64 || dirOff > maxInt64 {
		return nil, false
	}
	base := endOff - int64(dirSize) - int64(dirOff)
	if o := base + int64(dirOff); o < 0 || o >= size {
		return nil, false
	}
	if base > 0 {
		// archive/zip prefers base 0 when a directory header is found there
		hb := make([]byte, 4)
		if _, err := r.ReadAt(hb, int64(dirOff)); err == nil && le.Uint32(hb) == sigDirHeader {
			base = 0
		}
	}
	if uint16(records) != uint16(len(files)) { // archive/zip compares 16 bits too
		return nil, false
	}
	br := bufio.NewReaderSize(io.NewSectionReader(r, base+int64(dirOff), size-(base+int64(dirOff))), 64<<10)
	offs = make([]int64, 0, len(files))
	var h [dirHeaderLen]byte
	for _, f := range files {
		if _, err := io.ReadFull(br, h[:]); err != nil || le.Uint32(h[:]) != sigDirHeader {
			return nil, false
		}
		csize, off := uint64(le.Uint32(h[20:])), int64(le.Uint32(h[42:]))
		usize := le.Uint32(h[24:])
		nameLen, extraLen, commentLen := int(le.Uint16(h[28:])), int(le.Uint16(h[30:])), int(le.Uint16(h[32:]))
		d := make([]byte, nameLen+extraLen+commentLen)
		if _, err := io.ReadFull(br, d); err != nil {
			return nil, false
		}
		needU, needC, needO := usize == ^uint32(0), csize == uint64(^uint32(0)), off == int64(^uint32(0))
		for x := d[nameLen : nameLen+extraLen]; len(x) >= 4; {
			tag, n := le.Uint16(x), int(le.Uint16(x[2:]))
			x = x[4:]
			if len(x) < n {
				break
			}
			fb := x[:n]
			x = x[n:]
			if tag != zip64ExtraTag {
				continue
			}
			next := func() (uint64, bool) {
				if len(fb) < 8 {
					return 0, false
				}
				v := le.Uint64(fb)
				fb = fb[8:]
				return v, true
			}
			var good bool
			if needU {
				needU = false
				if _, good = next(); !good {
					return nil, false
				}
			}
			if needC {
				needC = false
				if csize, good = next(); !good {
					return nil, false
				}
			}
			if needO {
				needO = false
				var v uint64
				if v, good = next(); !good {
					return nil, false
				}
				off = int64(v)
			}
		}
		if string(d[:nameLen]) != f.Name || csize != f.CompressedSize64 {
			return nil, false
		}
		offs = append(offs, base+off)
	}
	return offs, true
}

// span is the part of the archive one entry owns: its local header (the
// fixed 30 bytes and its name) and its compressed data.
type span struct {
	i          int // index in Archive.Entries
	start, end int64
}

// overlaps returns the entries whose bytes (local header + compressed data,
// from the central directory's offset and sizes) overlap another entry's,
// each with the entry it overlaps: the construction of David Fifield's
// non-recursive zip bomb, where many central directory entries inflate one
// compressed kernel. A well-formed zip never shares a byte between entries.
// The local header's extra field is not counted (its length is only in the
// local header), so the span is a lower bound and an overlap found is real.
func overlaps(entries []*Entry, offs []int64) (pairs [][2]int) {
	spans := make([]span, len(entries))
	for i, e := range entries {
		f := e.File
		end := offs[i] + localHeadLen + int64(len(f.Name))
		if c := f.CompressedSize64; c > 1<<62 {
			end = 1<<63 - 1
		} else {
			end += int64(c)
		}
		spans[i] = span{i, offs[i], end}
	}
	sort.SliceStable(spans, func(a, b int) bool { return spans[a].start < spans[b].start })
	owner := -1 // the span reaching furthest so far
	for k, s := range spans {
		if owner >= 0 && s.start < spans[owner].end {
			pairs = append(pairs, [2]int{s.i, spans[owner].i})
		}
		if owner < 0 || s.end > spans[owner].end {
			owner = k
		}
	}
	return pairs
}
