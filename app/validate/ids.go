package validate

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"hash/maphash"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/model"
	"eval752/app/textnorm"
)

// Gate 1, identity: every question has one id, and one question is asked once.

var (
	ruleIDDuplicate = register(finding.Rule{
		Code:        "id.duplicate",
		Severity:    finding.Error,
		Description: "Question ids (eval752 id, b-2 query_id, v2 id, seed-003 qid) are unique within a bundle, or within all loose files.",
		Source:      "seed 004 字段说明 (id 在数据集内必须唯一)",
		Hint:        "Give every question its own id; results, qrels and judgments refer to questions by id, so a duplicate makes them ambiguous.",
		Family:      "ids",
	})
	ruleIDEmpty = register(finding.Rule{
		Code:        "id.empty",
		Severity:    finding.Error,
		Description: "A question id is not empty or blank.",
		Source:      "seed 004 字段说明 (id 必填)",
		Hint:        "Set a non-blank id; results and judgments cannot refer to a question without one.",
		Family:      "ids",
	})
	ruleDuplicateQuestion = register(finding.Rule{
		Code:        "id.duplicate-question",
		Severity:    finding.Warning,
		Description: "The same question text (after trimming, collapsing whitespace, full-width→half-width and Latin case folding) is not asked twice in one set.",
		Source:      "SPEC §3 gate 1 (duplicate questions, normalized text)",
		Hint:        "Remove or reword the duplicate: a repeated question counts twice in every mean and inflates n.",
		Family:      "ids",
	})
)

// qref names one question record: which record slice of the Dataset
// (qItem, qB2, qV2, qRAG) and its index there. The identity checks hold
// one qref (8 bytes) per question and read the id, location and text from
// the record itself, so a million questions cost megabytes, not the id,
// location, pointer and namespace copied per question.
type qref struct {
	kind uint8
	idx  uint32
}

const (
	qItem uint8 = iota
	qB2
	qV2
	qRAG
)

// questionRefs lists every typed question record of ds, in load order
// (eval752 items, b-2, v2, seed 003), sorted stably by path then line.
func (c *checker) questionRefs() []qref {
	ds := c.ds
	refs := make([]qref, 0, len(ds.Items)+len(ds.B2)+len(ds.V2)+len(ds.RAG))
	add := func(kind uint8, typed func(int) bool, n int) {
		for i := 0; i < n; i++ {
			if typed(i) {
				refs = append(refs, qref{kind, uint32(i)})
			}
		}
	}
	add(qItem, func(i int) bool { return ds.Items[i].Typed }, len(ds.Items))
	add(qB2, func(i int) bool { return ds.B2[i].Typed }, len(ds.B2))
	add(qV2, func(i int) bool { return ds.V2[i].Typed }, len(ds.V2))
	add(qRAG, func(i int) bool { return ds.RAG[i].Typed }, len(ds.RAG))
	cmp := func(a, b qref) int {
		la, lb := c.qloc(a), c.qloc(b)
		if c.ds.Path(la) != c.ds.Path(lb) {
			return strings.Compare(c.ds.Path(la), c.ds.Path(lb))
		}
		return int(la.Line) - int(lb.Line)
	}
	if !slices.IsSortedFunc(refs, cmp) {
		slices.SortStableFunc(refs, cmp)
	}
	return refs
}

// qloc is where the question q was read.
func (c *checker) qloc(q qref) dataset.Loc {
	switch q.kind {
	case qItem:
		return c.ds.Items[q.idx].Loc
	case qB2:
		return c.ds.B2[q.idx].Loc
	case qV2:
		return c.ds.V2[q.idx].Loc
	}
	return c.ds.RAG[q.idx].Loc
}

// qid is the question's id, the pointer of its id field, and whether the
// id key is missing (schema.required already says so).
func (c *checker) qid(q qref) (id, pointer string, absent bool) {
	switch q.kind {
	case qItem:
		r := &c.ds.Items[q.idx]
		return r.V.ID, "/id", !hasKey(r.Raw, "id")
	case qB2:
		r := &c.ds.B2[q.idx]
		return r.V.QueryID, "/query_id", !hasKey(r.Raw, "query_id")
	case qV2:
		r := &c.ds.V2[q.idx]
		return r.V.ID, "/id", !hasKey(r.Raw, "id")
	}
	r := &c.ds.RAG[q.idx]
	return r.V.QID, "/qid", !hasKey(r.Raw, "qid")
}

// namespace is where ids must be unique: every section of one bundle shares
// one namespace (results.jsonl refers to items of any section by id), and so
// do all loose files (a set split into dev.jsonl and test.jsonl is one set,
// and a result or a prediction names its question by id alone, whatever
// the question's format).
func namespace(path string, _ model.Format) string {
	if b, _ := splitPath(path); b != "" {
		return b
	}
	return "loose"
}

// keyed is one question's comparison key for a duplicate check: a hash of
// it (h) to sort by, the full key compared only when hashes tie, and the
// question's position in the (path, line) order.
type keyed struct {
	h   uint64
	pos uint32
}

// firsts groups n questions by key (hash(i) a hash of key i, same(i, j)
// whether keys i and j are equal, both given by position) and calls dup(i,
// first) for every question i whose key an earlier question (first, the
// smallest position of its key) already has. Memory: 16 bytes a question.
func firsts(n int, hash func(int) uint64, less func(i, j int) int, dup func(i, first int)) {
	ks := make([]keyed, n)
	for i := range ks {
		ks[i] = keyed{hash(i), uint32(i)}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		if a.h != b.h {
			return cmp.Compare(a.h, b.h)
		}
		if d := less(int(a.pos), int(b.pos)); d != 0 {
			return d
		}
		return cmp.Compare(a.pos, b.pos)
	})
	for g := 0; g < len(ks); {
		e := g + 1
		for e < len(ks) && ks[e].h == ks[g].h && less(int(ks[g].pos), int(ks[e].pos)) == 0 {
			dup(int(ks[e].pos), int(ks[g].pos))
			e++
		}
		g = e
	}
}

var idSeed = maphash.MakeSeed()

// checkIDs reports an empty id, and each later occurrence of a duplicate id
// naming the first one (first = smallest path, then line).
func (c *checker) checkIDs() {
	refs := c.questionRefs()
	var keep []qref // the questions with a non-blank id, in position order
	for _, q := range refs {
		id, pointer, absent := c.qid(q)
		if strings.TrimSpace(id) == "" {
			if absent {
				continue // one finding per defect: the schema reports the missing key
			}
			l := c.qloc(q)
			c.add(ruleIDEmpty.At(c.ds.Path(l), int(l.Line), pointer, "question id is empty"))
			continue
		}
		keep = append(keep, q)
	}
	key := func(i int) (space, id string) {
		id, _, _ = c.qid(keep[i])
		return namespace(c.ds.Path(c.qloc(keep[i])), ""), id
	}
	firsts(len(keep), func(i int) uint64 {
		space, id := key(i)
		var h maphash.Hash
		h.SetSeed(idSeed)
		h.WriteString(space)
		h.WriteByte(0)
		h.WriteString(id)
		return h.Sum64()
	}, func(i, j int) int {
		si, ii := key(i)
		sj, ij := key(j)
		if si != sj {
			return strings.Compare(si, sj)
		}
		return strings.Compare(ii, ij)
	}, func(i, first int) {
		id, pointer, _ := c.qid(keep[i])
		l := c.qloc(keep[i])
		c.add(ruleIDDuplicate.At(c.ds.Path(l), int(l.Line), pointer,
			"duplicate id %q (first at %s)", id, c.loc(c.qloc(keep[first]))))
	})
}

// questionKey is one question's identity for the duplicate check: the
// SHA-256 of its normalised text plus whatever else makes two equal texts
// different questions (the images of "describe this image", the choices of
// "which is correct?", the sources of a b-2 "what is the title?"), and the
// pointer of its text; ok is false for a question without text.
func (c *checker) questionKey(q qref) (d [sha256.Size]byte, pointer string, ok bool) {
	switch q.kind {
	case qItem:
		r := &c.ds.Items[q.idx]
		if strings.TrimSpace(r.V.Inputs.Text) == "" {
			return d, "", false
		}
		in := r.V.Inputs
		k := NormalizeText(in.Text) + "\x00" + strings.Join(in.Images, "\x01") + "\x00" +
			strings.Join(in.AudioPaths(), "\x01") + "\x00" + strings.Join(in.VideoPaths(), "\x01") + "\x00"
		for _, ch := range r.V.Choices {
			k += NormalizeText(ch) + "\x01"
		}
		return sha256.Sum256([]byte(k)), "/inputs/text", true
	case qB2:
		r := &c.ds.B2[q.idx]
		if strings.TrimSpace(r.V.Question) == "" {
			return d, "", false
		}
		var src []string
		for _, g := range r.V.Gold {
			src = append(src, g.SourceID)
		}
		sort.Strings(src)
		k := NormalizeText(r.V.Question) + "\x00" + r.V.Modality + "\x00" + strings.Join(src, "\x01")
		return sha256.Sum256([]byte(k)), "/question", true
	case qV2:
		r := &c.ds.V2[q.idx]
		if strings.TrimSpace(r.V.Question) == "" {
			return d, "", false
		}
		return sha256.Sum256([]byte(NormalizeText(r.V.Question))), "/question", true
	}
	r := &c.ds.RAG[q.idx]
	if strings.TrimSpace(r.V.Query) == "" {
		return d, "", false
	}
	return sha256.Sum256([]byte(NormalizeText(r.V.Query))), "/query", true
}

// checkDuplicateQuestions reports each later occurrence of a question asked
// before in the same namespace (first = smallest path, then line). Only the
// 32-byte digest of each question is held, with its position.
func (c *checker) checkDuplicateQuestions() {
	refs := c.questionRefs()
	type digested struct {
		d [sha256.Size]byte
		q qref
	}
	var qs []digested
	for _, q := range refs {
		if d, _, ok := c.questionKey(q); ok {
			qs = append(qs, digested{d, q})
		}
	}
	refs = nil
	pointer := func(q qref) string {
		switch q.kind {
		case qItem:
			return "/inputs/text"
		case qRAG:
			return "/query"
		}
		return "/question"
	}
	// Different formats never collide: the pointer names the field, and
	// a b-2 question is not a duplicate of a v2 question with equal text.
	firsts(len(qs), func(i int) uint64 {
		return binary.LittleEndian.Uint64(qs[i].d[:8])
	}, func(i, j int) int {
		a, b := qs[i], qs[j]
		if d := bytes.Compare(a.d[:], b.d[:]); d != 0 {
			return d
		}
		if d := strings.Compare(namespace(c.ds.Path(c.qloc(a.q)), ""), namespace(c.ds.Path(c.qloc(b.q)), "")); d != 0 {
			return d
		}
		return strings.Compare(pointer(a.q), pointer(b.q))
	}, func(i, first int) {
		l, p := c.qloc(qs[i].q), pointer(qs[i].q)
		c.add(ruleDuplicateQuestion.At(c.ds.Path(l), int(l.Line), p,
			"same question as %s (after normalising whitespace, width and case)", c.loc(c.qloc(qs[first].q))))
	})
}

// NormalizeText is the comparison form of a question: NFKC's width folding
// for the characters that matter in practice (full-width ASCII U+FF01–U+FF5E
// → U+0021–U+007E, ideographic space U+3000 → space), every run of white
// space collapsed to one space, leading and trailing space trimmed, and
// Latin letters lower-cased. CJK text is left as it is. The width folding is
// textnorm.FoldWidth; why this key collapses whitespace instead of dropping
// it (answer.Normalize, audit's compact) is written in package textnorm.
func NormalizeText(s string) string {
	if k, ok := normalizeASCII(s); ok {
		return k
	}
	return normalizeRunes(s)
}

// normalizeASCII is NormalizeText of an ASCII string, without decoding
// runes, and s itself when it is already normal (most questions are: on 1M
// b-2 lines the rune-by-rune builder was a third of the rules' time); ok is
// false when s is not ASCII.
func normalizeASCII(s string) (string, bool) {
	clean, space := true, true // a leading space is not normal
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			return "", false
		case asciiSpace(c):
			clean = clean && c == ' ' && !space
			space = true
		default:
			clean = clean && (c < 'A' || c > 'Z')
			space = false
		}
	}
	if clean && (len(s) == 0 || !space) {
		return s, true
	}
	b := make([]byte, 0, len(s))
	space = false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if asciiSpace(c) {
			space = true
			continue
		}
		if space && len(b) > 0 {
			b = append(b, ' ')
		}
		space = false
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b), true
}

// asciiSpace is unicode.IsSpace of an ASCII byte.
func asciiSpace(c byte) bool {
	return c == ' ' || c >= '\t' && c <= '\r'
}

// normalizeRunes is NormalizeText rune by rune (any text).
func normalizeRunes(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		r = textnorm.FoldWidth(r)
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		if unicode.Is(unicode.Latin, r) {
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
