package dataset

import (
	"encoding/json"
	"strconv"

	"eval752/app/model"
)

// The b-2 fast path reads a line straight into what the loader keeps of it
// — the typed record and the pruned Rec.Raw of compact.go — without the
// generic map tree, the schema walk or the per-record interning maps: on
// 1M b-2 lines those were most of dataset.Load's CPU and nearly all of its
// garbage. It accepts only the plain shape every well-formed b-2 writer
// produces, and answers "not mine" (the caller then takes the generic path:
// strict decoder, JSON Schema, typed decode, compact) for anything else:
//
//   - a key other than the b-2 fields (the top level, scope, origin and
//     gold elements hold exactly their fields, each once; a region's keys
//     are free but unrepeated);
//   - a string with an escape or a control character, a number other than
//     -?(0|[1-9][0-9]*)(\.[0-9]+)? of at most 15 digits, a region value
//     that nests, or an answer array that nests;
//   - any value the schema would reject (an empty query_id or source_id, a
//     modality or answer_format outside its enum, a blank holder, a wrong
//     type), and any syntax the strict decoder would report.
//
// A line it accepts has no finding on either path, and its record equals
// the generic path's field by field (TestFastB2SameAsGeneric,
// FuzzFastB2Line).

// fastB2Enabled turns the fast path off for the tests' reference runs.
var fastB2Enabled = true

// b2Scratch is one worker's state for the fast path: a scratch buffer and
// bounded caches of the values many records share (strings such as the
// split or the license, regions, pruned Raw trees). A cache is emptied
// when it reaches b2CacheMax entries, so a set of distinct values costs
// bounded memory rather than a map of every value.
type b2Scratch struct {
	buf     []byte
	strs    map[string]string
	regions map[string]b2Region
	raws    map[string]any
	spans   []b2GoldSpan
}

// b2Region is one region text decoded twice: as Rec.Raw keeps it (numbers
// as json.Number) and as the typed record does (numbers as float64).
type b2Region struct {
	raw, typed map[string]any
}

type b2GoldSpan struct {
	src           [2]int // source_id's content
	region        [2]int // the region object's text
	regRaw, regTy map[string]any
}

const b2CacheMax = 4096

func newB2Scratch() *b2Scratch {
	return &b2Scratch{strs: map[string]string{}, regions: map[string]b2Region{}, raws: map[string]any{}}
}

// str returns the shared copy of b's text.
func (w *b2Scratch) str(b []byte) string {
	if s, ok := w.strs[string(b)]; ok {
		return s
	}
	if len(w.strs) >= b2CacheMax {
		clear(w.strs)
	}
	s := string(b)
	w.strs[s] = s
	return s
}

// b2scan reads one line; every method returns false on anything outside
// the accepted shape.
type b2scan struct {
	b []byte
	i int
}

func (s *b2scan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// byte consumes c after optional white space.
func (s *b2scan) byte(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string without escapes or control characters and returns
// its content's span.
func (s *b2scan) str() (start, end int, ok bool) {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return 0, 0, false
	}
	s.i++
	start = s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c == '"' {
			s.i++
			return start, s.i - 1, true
		}
		if c == '\\' || c < 0x20 {
			return 0, 0, false
		}
		s.i++
	}
	return 0, 0, false
}

// key reads an object key and its colon.
func (s *b2scan) key() (k []byte, ok bool) {
	a, e, ok := s.str()
	if !ok || !s.byte(':') {
		return nil, false
	}
	return s.b[a:e], true
}

// next consumes the ',' or the '}' / ']' (close) after a member; more is
// true after a ','.
func (s *b2scan) next(close byte) (more, ok bool) {
	s.ws()
	if s.i >= len(s.b) {
		return false, false
	}
	switch s.b[s.i] {
	case ',':
		s.i++
		return true, true
	case close:
		s.i++
		return false, true
	}
	return false, false
}

func (s *b2scan) lit(w string) bool {
	s.ws()
	if len(s.b)-s.i >= len(w) && string(s.b[s.i:s.i+len(w)]) == w {
		s.i += len(w)
		return true
	}
	return false
}

// num reads a plain number: -?(0|[1-9][0-9]*)(\.[0-9]+)?, at most 15
// digits, so that ParseFloat reads it exactly and no bound applies.
func (s *b2scan) num() (start, end int, ok bool) {
	s.ws()
	start = s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	digits := 0
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
		digits++
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		for s.i < len(s.b) && isDigitByte(s.b[s.i]) {
			s.i++
			digits++
		}
	default:
		return 0, 0, false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		frac := 0
		for s.i < len(s.b) && isDigitByte(s.b[s.i]) {
			s.i++
			frac++
		}
		if frac == 0 {
			return 0, 0, false
		}
		digits += frac
	}
	if digits > 15 || s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return 0, 0, false
	}
	return start, s.i, true
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// peek returns the next byte after white space (0 at the end).
func (s *b2scan) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// flat reads a scalar (string, plain number, true, false, null) or, when
// arrays is set, an array of strings and plain numbers; it returns the
// value twice when decode is set: as the generic decoder gives it (raw)
// and as encoding/json does (typed).
func (s *b2scan) flat(arrays, decode bool) (raw, typed any, ok bool) {
	switch c := s.peek(); {
	case c == '"':
		a, e, ok := s.str()
		if !ok || !decode {
			return nil, nil, ok
		}
		v := string(s.b[a:e])
		return v, v, true
	case c == '-' || isDigitByte(c):
		a, e, ok := s.num()
		if !ok || !decode {
			return nil, nil, ok
		}
		f, err := strconv.ParseFloat(string(s.b[a:e]), 64)
		if err != nil {
			return nil, nil, false
		}
		return json.Number(s.b[a:e]), f, true
	case c == 't':
		return true, true, s.lit("true")
	case c == 'f':
		return false, false, s.lit("false")
	case c == 'n':
		return nil, nil, s.lit("null")
	case c == '[' && arrays:
		s.i++
		var rs, ts []any
		if decode {
			rs, ts = []any{}, []any{}
		}
		if s.peek() == ']' {
			s.i++
			return rs, ts, true
		}
		for {
			c := s.peek()
			if c != '"' && c != '-' && !isDigitByte(c) {
				return nil, nil, false
			}
			r, t, ok := s.flat(false, decode)
			if !ok {
				return nil, nil, false
			}
			if decode {
				rs, ts = append(rs, r), append(ts, t)
			}
			more, ok := s.next(']')
			if !ok {
				return nil, nil, false
			}
			if !more {
				return rs, ts, true
			}
		}
	}
	return nil, nil, false
}

// region reads a gold region object (flat values, unrepeated keys) and
// returns its span; its decoded values come from the worker's cache.
func (s *b2scan) region(w *b2Scratch) (start, end int, reg b2Region, ok bool) {
	if s.peek() != '{' {
		return 0, 0, reg, false
	}
	start = s.i
	s.i++
	var keys [][]byte
	if s.peek() == '}' {
		s.i++
	} else {
		for {
			k, ok := s.key()
			if !ok {
				return 0, 0, reg, false
			}
			for _, o := range keys {
				if string(o) == string(k) {
					return 0, 0, reg, false
				}
			}
			keys = append(keys, k)
			if _, _, ok := s.flat(true, false); !ok {
				return 0, 0, reg, false
			}
			more, ok := s.next('}')
			if !ok {
				return 0, 0, reg, false
			}
			if !more {
				break
			}
		}
	}
	end = s.i
	if r, hit := w.regions[string(s.b[start:end])]; hit {
		return start, end, r, true
	}
	// decode the (valid) region text
	d := b2scan{b: s.b[start:end]}
	d.i++
	reg = b2Region{raw: make(map[string]any, len(keys)), typed: make(map[string]any, len(keys))}
	if d.peek() == '}' {
		d.i++
	} else {
		for {
			k, _ := d.key()
			r, t, _ := d.flat(true, true)
			reg.raw[string(k)], reg.typed[string(k)] = r, t
			if more, _ := d.next('}'); !more {
				break
			}
		}
	}
	if len(w.regions) >= b2CacheMax {
		clear(w.regions)
	}
	w.regions[string(s.b[start:end])] = reg
	return start, end, reg, true
}

// Field bits of the b-2 record, its scope and its origin.
const (
	fQueryID = 1 << iota
	fModality
	fQuestion
	fAnswer
	fAnswerFormat
	fGold
	fScope
	fAsOf
	fUnanswerable
	fOrigin
	fSplit
	fAll = 1<<iota - 1
)

func inEnum(b []byte, vals ...string) bool {
	for _, v := range vals {
		if string(b) == v {
			return true
		}
	}
	return false
}

// fastB2Line decodes a b-2 line of the accepted shape into the record the
// loader keeps (Rec.V, and Rec.Raw as compact prunes it); ok is false for
// any other line.
func fastB2Line(w *b2Scratch, line []byte) (v model.B2, raw any, ok bool) {
	s := &b2scan{b: line}
	if !s.byte('{') {
		return v, nil, false
	}
	var seen int
	var qid, question, item, answer [2]int
	spans := w.spans[:0]
	defer func() { w.spans = spans[:0] }()
	for {
		k, ok := s.key()
		if !ok {
			return v, nil, false
		}
		var bit int
		switch string(k) {
		case "query_id":
			bit = fQueryID
			a, e, ok := s.str()
			if !ok || a == e {
				return v, nil, false
			}
			qid = [2]int{a, e}
		case "modality":
			bit = fModality
			a, e, ok := s.str()
			if !ok || !inEnum(line[a:e], model.Modalities...) {
				return v, nil, false
			}
			v.Modality = w.str(line[a:e])
		case "question":
			bit = fQuestion
			a, e, ok := s.str()
			if !ok {
				return v, nil, false
			}
			question = [2]int{a, e}
		case "answer":
			bit = fAnswer
			s.ws()
			a := s.i
			if s.peek() == 't' || s.peek() == 'f' {
				return v, nil, false // a boolean is no answer the schema allows
			}
			if _, _, ok := s.flat(true, false); !ok {
				return v, nil, false
			}
			answer = [2]int{a, s.i}
		case "answer_format":
			bit = fAnswerFormat
			a, e, ok := s.str()
			if !ok || !inEnum(line[a:e], "str", "int", "float", "list", "none") {
				return v, nil, false
			}
			v.AnswerFormat = w.str(line[a:e])
		case "gold":
			bit = fGold
			if !s.byte('[') {
				return v, nil, false
			}
			if s.peek() == ']' {
				s.i++
				break
			}
			for {
				if !s.byte('{') {
					return v, nil, false
				}
				var g b2GoldSpan
				var gseen int
				for {
					k, ok := s.key()
					if !ok {
						return v, nil, false
					}
					switch string(k) {
					case "source_id":
						a, e, ok := s.str()
						if !ok || a == e || gseen&1 != 0 {
							return v, nil, false
						}
						gseen |= 1
						g.src = [2]int{a, e}
					case "region":
						a, e, reg, ok := s.region(w)
						if !ok || gseen&2 != 0 {
							return v, nil, false
						}
						gseen |= 2
						g.region = [2]int{a, e}
						g.regRaw, g.regTy = reg.raw, reg.typed
					default:
						return v, nil, false
					}
					more, ok := s.next('}')
					if !ok {
						return v, nil, false
					}
					if !more {
						break
					}
				}
				if gseen != 3 {
					return v, nil, false
				}
				spans = append(spans, g)
				more, ok := s.next(']')
				if !ok {
					return v, nil, false
				}
				if !more {
					break
				}
			}
		case "scope":
			bit = fScope
			if !s.byte('{') {
				return v, nil, false
			}
			var sseen int
			for {
				k, ok := s.key()
				if !ok {
					return v, nil, false
				}
				var sb int
				switch string(k) {
				case "holder":
					sb = 1
					a, e, ok := s.str()
					if !ok || !notBlank(line[a:e]) {
						return v, nil, false
					}
					v.Scope.Holder = w.str(line[a:e])
				case "session":
					sb = 2
					if s.peek() == 'n' {
						if !s.lit("null") {
							return v, nil, false
						}
						v.Scope.Session = nil
					} else {
						a, e, ok := s.str()
						if !ok {
							return v, nil, false
						}
						sess := w.str(line[a:e])
						v.Scope.Session = &sess
					}
				case "scenario":
					sb = 4
					a, e, ok := s.str()
					if !ok {
						return v, nil, false
					}
					v.Scope.Scenario = w.str(line[a:e])
				default:
					return v, nil, false
				}
				if sseen&sb != 0 {
					return v, nil, false
				}
				sseen |= sb
				more, ok := s.next('}')
				if !ok {
					return v, nil, false
				}
				if !more {
					break
				}
			}
			if sseen != 7 {
				return v, nil, false
			}
		case "as_of":
			bit = fAsOf
			a, e, ok := s.str()
			if !ok {
				return v, nil, false
			}
			v.AsOf = w.str(line[a:e])
		case "unanswerable":
			bit = fUnanswerable
			switch s.peek() {
			case 't':
				v.Unanswerable = true
				ok = s.lit("true")
			case 'f':
				ok = s.lit("false")
			default:
				ok = false
			}
			if !ok {
				return v, nil, false
			}
		case "origin":
			bit = fOrigin
			if !s.byte('{') {
				return v, nil, false
			}
			var oseen int
			for {
				k, ok := s.key()
				if !ok {
					return v, nil, false
				}
				a, e, ok := s.str()
				if !ok {
					return v, nil, false
				}
				var ob int
				switch string(k) {
				case "dataset":
					ob = 1
					v.Origin.Dataset = w.str(line[a:e])
				case "revision":
					ob = 2
					v.Origin.Revision = w.str(line[a:e])
				case "item":
					ob = 4
					item = [2]int{a, e}
				case "license":
					ob = 8
					v.Origin.License = w.str(line[a:e])
				default:
					return v, nil, false
				}
				if oseen&ob != 0 {
					return v, nil, false
				}
				oseen |= ob
				more, ok := s.next('}')
				if !ok {
					return v, nil, false
				}
				if !more {
					break
				}
			}
			if oseen != 15 {
				return v, nil, false
			}
		case "split":
			bit = fSplit
			a, e, ok := s.str()
			if !ok {
				return v, nil, false
			}
			v.Split = w.str(line[a:e])
		default:
			return v, nil, false
		}
		if seen&bit != 0 {
			return v, nil, false
		}
		seen |= bit
		more, ok := s.next('}')
		if !ok {
			return v, nil, false
		}
		if !more {
			break
		}
	}
	s.ws()
	if seen != fAll || s.i != len(line) {
		return v, nil, false
	}

	// the record's own strings: one allocation for the three, one for
	// the answer's text
	w.buf = append(append(append(w.buf[:0], line[qid[0]:qid[1]]...), line[question[0]:question[1]]...), line[item[0]:item[1]]...)
	own := string(w.buf)
	nq, nqs := qid[1]-qid[0], question[1]-question[0]
	v.QueryID, v.Question, v.Origin.Item = own[:nq], own[nq:nq+nqs], own[nq+nqs:]
	v.Answer = append(model.Raw(nil), line[answer[0]:answer[1]]...)

	v.Gold = make([]model.B2Gold, len(spans))
	w.buf = w.buf[:0]
	for i, g := range spans {
		v.Gold[i] = model.B2Gold{SourceID: w.str(line[g.src[0]:g.src[1]]), Region: g.regTy}
		w.buf = append(append(w.buf, line[g.region[0]:g.region[1]]...), 0)
	}
	raw, hit := w.raws[string(w.buf)]
	if !hit {
		gold := make([]any, len(spans))
		for i, g := range spans {
			gold[i] = map[string]any{"region": g.regRaw}
		}
		raw = map[string]any{"query_id": nil, "gold": gold}
		if len(w.raws) >= b2CacheMax {
			clear(w.raws)
		}
		w.raws[string(w.buf)] = raw
	}
	return v, raw, true
}

// notBlank: the holder's pattern \S (RE2: a rune other than \t \n \f \r
// and space); the scanner already refused control characters.
func notBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' {
			return true
		}
	}
	return false
}
