package wire

import (
	"strconv"
	"strings"
)

// PointerSpan locates the value an RFC 6901 JSON pointer names inside one
// JSON text (a JSONL line) and returns its byte range [start, end). When the
// pointer names something absent (a missing required field), the span is the
// deepest ancestor that exists and exact is false, so the page can still
// point at the object that lacks the field. ok is false when line is not JSON
// the scanner can follow (then nothing is highlighted).
//
// This is a small hand-written scanner rather than encoding/json because the
// page needs byte offsets of values, which the decoder does not expose.
func PointerSpan(line, pointer string) (start, end int, exact, ok bool) {
	toks, valid := splitPointer(pointer)
	if !valid {
		return 0, 0, false, false
	}
	sc := scanner{s: line}
	sc.ws()
	st, en, depth, good := sc.find(toks)
	if !good {
		return 0, 0, false, false
	}
	return st, en, depth == len(toks), true
}

func splitPointer(p string) ([]string, bool) {
	if p == "" {
		return nil, true
	}
	if p[0] != '/' {
		return nil, false
	}
	parts := strings.Split(p[1:], "/")
	for i, t := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return parts, true
}

type scanner struct {
	s   string
	pos int
}

func (sc *scanner) ws() {
	for sc.pos < len(sc.s) {
		switch sc.s[sc.pos] {
		case ' ', '\t', '\r', '\n':
			sc.pos++
		default:
			return
		}
	}
}

// find scans the value at pos. It returns the span of the deepest value on
// the pointer's path and how many tokens were matched to reach it.
func (sc *scanner) find(toks []string) (start, end, depth int, ok bool) {
	start = sc.pos
	if len(toks) == 0 || sc.pos >= len(sc.s) || (sc.s[sc.pos] != '{' && sc.s[sc.pos] != '[') {
		if !sc.skip() {
			return 0, 0, 0, false
		}
		return start, sc.pos, 0, true
	}
	bestS, bestE, bestD := -1, -1, 0
	obj := sc.s[sc.pos] == '{'
	sc.pos++
	idx := 0
	for {
		sc.ws()
		if sc.pos >= len(sc.s) {
			return 0, 0, 0, false
		}
		c := sc.s[sc.pos]
		if (obj && c == '}') || (!obj && c == ']') {
			sc.pos++
			break
		}
		if c == ',' {
			sc.pos++
			continue
		}
		match := false
		if obj {
			key, good := sc.str()
			if !good {
				return 0, 0, 0, false
			}
			sc.ws()
			if sc.pos >= len(sc.s) || sc.s[sc.pos] != ':' {
				return 0, 0, 0, false
			}
			sc.pos++
			sc.ws()
			match = key == toks[0]
		} else {
			match = strconv.Itoa(idx) == toks[0]
			idx++
		}
		if match {
			// a repeated key: the last one wins, as in the decoder (the
			// record the checks saw)
			s, e, d, good := sc.find(toks[1:])
			if !good {
				return 0, 0, 0, false
			}
			bestS, bestE, bestD = s, e, d+1
		} else if !sc.skip() {
			return 0, 0, 0, false
		}
	}
	if bestS >= 0 {
		return bestS, bestE, bestD, true
	}
	return start, sc.pos, 0, true
}

// skip moves past one JSON value.
func (sc *scanner) skip() bool {
	sc.ws()
	if sc.pos >= len(sc.s) {
		return false
	}
	switch c := sc.s[sc.pos]; c {
	case '"':
		_, ok := sc.str()
		return ok
	case '{', '[':
		open, close := c, byte('}')
		if c == '[' {
			close = ']'
		}
		depth := 0
		for sc.pos < len(sc.s) {
			switch sc.s[sc.pos] {
			case '"':
				if _, ok := sc.str(); !ok {
					return false
				}
				continue
			case open:
				depth++
			case close:
				depth--
				if depth == 0 {
					sc.pos++
					return true
				}
			}
			sc.pos++
		}
		return false
	default:
		st := sc.pos
		for sc.pos < len(sc.s) && !strings.ContainsRune(",}] \t\r\n", rune(sc.s[sc.pos])) {
			sc.pos++
		}
		return sc.pos > st
	}
}

// str reads a JSON string at pos and returns its decoded value.
func (sc *scanner) str() (string, bool) {
	if sc.pos >= len(sc.s) || sc.s[sc.pos] != '"' {
		return "", false
	}
	st := sc.pos
	sc.pos++
	esc := false
	for sc.pos < len(sc.s) {
		c := sc.s[sc.pos]
		sc.pos++
		if esc {
			esc = false
			continue
		}
		if c == '\\' {
			esc = true
			continue
		}
		if c == '"' {
			v, err := strconv.Unquote(sc.s[st:sc.pos])
			if err != nil {
				// \u escapes that strconv rejects (e.g. lone surrogates) and
				// "\/" : fall back to the raw text, good enough to match keys.
				return sc.s[st+1 : sc.pos-1], true
			}
			return v, true
		}
	}
	return "", false
}
