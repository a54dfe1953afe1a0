// Package jsonl reads line-oriented text (JSONL, TREC, YAML) with exact
// 1-based line numbers and decodes one JSON line strictly.
//
// bufio.Scanner stops at 64 KiB lines and encoding/json keeps the last of two
// duplicate keys without a word; both would let a reviewer see a different
// record than the scorer. This package reads lines of any length up to a cap,
// and its decoder reports every duplicate key, trailing garbage and syntax
// error with a byte column, so each problem becomes one located finding and
// reading goes on.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf8"

	"eval752/app/finding"
)

// Rules of this package. Every problem a reader or the decoder meets is one
// finding of one of these rules.
var (
	RuleSyntax = finding.Register(finding.Rule{
		Code: "jsonl.syntax", Severity: finding.Error, Family: "jsonl",
		Description: "a line is not valid JSON",
		Source:      "spec §3 (a malformed line is one finding; reading continues)",
		Hint:        "fix the JSON on this line (one complete object per line); the column points at the first bad byte",
	})
	RuleTrailing = finding.Register(finding.Rule{
		Code: "jsonl.trailing-data", Severity: finding.Error, Family: "jsonl",
		Description: "a line holds more than one JSON value",
		Source:      "spec §3",
		Hint:        "put exactly one JSON object on each line; split concatenated records onto separate lines",
	})
	RuleDuplicateKey = finding.Register(finding.Rule{
		Code: "jsonl.duplicate-key", Severity: finding.Error, Family: "jsonl",
		Description: "an object repeats a key (decoders disagree on which value wins)",
		Source:      "issue 2 §2 (a reviewer must not see a different record than the scorer)",
		Hint:        "remove one of the two keys; eval752 and Go keep the last value, other tools may keep the first",
	})
	RuleInvalidUTF8 = finding.Register(finding.Rule{
		Code: "jsonl.invalid-utf8", Severity: finding.Error, Family: "jsonl",
		Description: "a line is not valid UTF-8",
		Source:      "RFC 8259 §8.1",
		Hint:        "re-encode the file as UTF-8 (e.g. iconv -f GB18030 -t UTF-8)",
	})
	RuleLineTooLong = finding.Register(finding.Rule{
		Code: "jsonl.line-too-long", Severity: finding.Error, Family: "jsonl",
		Description: "a line is longer than the configured cap; it is skipped",
		Source:      "spec §6 (huge lines must not exhaust memory)",
		Hint:        "split the record or raise the cap (command line: --max-line-mb N)",
	})
	RuleNotObject = finding.Register(finding.Rule{
		Code: "jsonl.not-object", Severity: finding.Error, Family: "jsonl",
		Description: "a JSONL line is valid JSON but not an object",
		Source:      "seed 004 (每行一个 JSON 对象)",
		Hint:        "each line must be one JSON object {...}",
	})
	RuleMultiline = finding.Register(finding.Rule{
		Code: "jsonl.multiline", Severity: finding.Warning, Family: "jsonl",
		Description: "a JSONL file holds pretty-printed records, each spread over several lines (as seed 004 prints its examples); eval752 reads them, line-based tools do not",
		Source:      "seed 004 (JSONL 文件中的每一行代表一个评测题目)",
		Hint:        "write one record per line, e.g. jq -c . file.jsonl > fixed.jsonl",
	})
)

// DefaultMaxLine is the line cap used when a caller passes 0.
const DefaultMaxLine = 64 << 20

var bom = []byte{0xEF, 0xBB, 0xBF}

// Lines calls fn for every non-blank line of r, with its 1-based number and
// its bytes without the line terminator ("\n" or "\r\n") and, on line 1,
// without a UTF-8 byte order mark. The slice is only valid during the call.
//
// A line longer than maxLine bytes is reported (jsonl.line-too-long) and
// skipped without being held in memory; a line that is not UTF-8 is reported
// (jsonl.invalid-utf8) and skipped. Blank lines (only spaces, tabs, CR) are
// skipped silently. lines is the number of lines read (the last line's
// number); err is an error of r itself, after which reading stops.
func Lines(r io.Reader, path string, maxLine int64, fn func(n int, line []byte)) (lines int, fs finding.List, err error) {
	return LinesAt(r, path, maxLine, func(n int, _ int64, line []byte) { fn(n, line) })
}

// LinesAt is Lines that also gives fn the byte offset in r of the line's
// start (line 1 starts at 0, before a byte order mark).
func LinesAt(r io.Reader, path string, maxLine int64, fn func(n int, off int64, line []byte)) (lines int, fs finding.List, err error) {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	n := 0
	var next int64 // the offset of the next line's start
	for {
		buf = buf[:0]
		tooLong := false
		var size int64
		off := next
		var rerr error
		for {
			chunk, e := br.ReadSlice('\n')
			size += int64(len(chunk))
			if !tooLong {
				if size > maxLine+2 { // +2: the terminator does not count
					tooLong = true
					buf = buf[:0]
				} else {
					buf = append(buf, chunk...)
				}
			}
			if e == bufio.ErrBufferFull {
				continue
			}
			rerr = e
			break
		}
		if size == 0 && rerr != nil {
			break
		}
		n++
		next += size
		if tooLong {
			fs = append(fs, RuleLineTooLong.At(path, n, "", "line %d is longer than %d bytes (≥ %d); skipped", n, maxLine, size))
		} else {
			line := bytes.TrimSuffix(buf, []byte("\n"))
			line = bytes.TrimSuffix(line, []byte("\r"))
			if n == 1 {
				line = bytes.TrimPrefix(line, bom)
			}
			if int64(len(line)) > maxLine {
				fs = append(fs, RuleLineTooLong.At(path, n, "", "line %d is longer than %d bytes (%d); skipped", n, maxLine, len(line)))
			} else if !Blank(line) {
				if !utf8.Valid(line) {
					fs = append(fs, RuleInvalidUTF8.At(path, n, "", "line %d is not valid UTF-8 (first bad byte at column %d)", n, BadUTF8(line)+1))
				} else {
					fn(n, off, line)
				}
			}
		}
		if rerr != nil {
			if !errors.Is(rerr, io.EOF) {
				return n, fs, rerr
			}
			break
		}
	}
	return n, fs, nil
}

// Blank reports whether a line holds only spaces, tabs and CRs (a blank
// line is skipped, not a record).
func Blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// BadUTF8 returns the byte offset of the first invalid UTF-8 sequence in b,
// or len(b) when b is valid UTF-8.
func BadUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}
