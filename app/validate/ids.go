package validate

import (
	"crypto/sha256"
	"sort"
	"strings"
	"unicode"

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

// idRef is one question id occurrence.
type idRef struct {
	id      string
	loc     dataset.Loc
	pointer string
	space   string // namespace: the bundle path, or "loose:<format>" for top-level files
	absent  bool   // the id key is missing: schema.required already says so
}

// namespace is where ids must be unique: every section of one bundle shares
// one namespace (results.jsonl refers to items of any section by id), and so
// do all loose files (a set split into dev.jsonl and test.jsonl is one set,
// and a result or a prediction names its question by id alone, whatever
// the question's format).
func namespace(path string, f model.Format) string {
	if b, _ := splitPath(path); b != "" {
		return b
	}
	return "loose"
}

// questionIDs lists every question id in ds, in load order.
func (c *checker) questionIDs() []idRef {
	var refs []idRef
	for _, r := range c.ds.Items {
		if r.Typed {
			refs = append(refs, idRef{r.V.ID, r.Loc, "/id", namespace(r.Path, model.FormatItem), !hasKey(r.Raw, "id")})
		}
	}
	for _, r := range c.ds.B2 {
		if r.Typed {
			refs = append(refs, idRef{r.V.QueryID, r.Loc, "/query_id", namespace(r.Path, model.FormatB2), !hasKey(r.Raw, "query_id")})
		}
	}
	for _, r := range c.ds.V2 {
		if r.Typed {
			refs = append(refs, idRef{r.V.ID, r.Loc, "/id", namespace(r.Path, model.FormatV2Question), !hasKey(r.Raw, "id")})
		}
	}
	for _, r := range c.ds.RAG {
		if r.Typed {
			refs = append(refs, idRef{r.V.QID, r.Loc, "/qid", namespace(r.Path, model.FormatRAGQuestion), !hasKey(r.Raw, "qid")})
		}
	}
	return refs
}

// checkIDs reports an empty id, and each later occurrence of a duplicate id
// naming the first one (first = smallest path, then line).
func (c *checker) checkIDs() {
	refs := c.questionIDs()
	sort.SliceStable(refs, func(i, j int) bool {
		if refs[i].loc.Path != refs[j].loc.Path {
			return refs[i].loc.Path < refs[j].loc.Path
		}
		return refs[i].loc.Line < refs[j].loc.Line
	})
	first := map[string]idRef{}
	for _, r := range refs {
		if strings.TrimSpace(r.id) == "" {
			if r.absent {
				continue // one finding per defect: the schema reports the missing key
			}
			c.add(ruleIDEmpty.At(r.loc.Path, r.loc.Line, r.pointer, "question id is empty"))
			continue
		}
		k := r.space + "\x00" + r.id
		if f, dup := first[k]; dup {
			c.add(ruleIDDuplicate.At(r.loc.Path, r.loc.Line, r.pointer,
				"duplicate id %q (first at %s)", r.id, loc(f.loc)))
			continue
		}
		first[k] = r
	}
}

// questionText is one question's identity for the duplicate check: its
// normalised text plus whatever else makes two equal texts different
// questions (the images of "describe this image", the choices of "which is
// correct?", the sources of a b-2 "what is the title?").
type questionText struct {
	key     string
	loc     dataset.Loc
	pointer string
	space   string
}

func (c *checker) checkDuplicateQuestions() {
	var qs []questionText
	for _, r := range c.ds.Items {
		if !r.Typed || strings.TrimSpace(r.V.Inputs.Text) == "" {
			continue
		}
		in := r.V.Inputs
		k := NormalizeText(in.Text) + "\x00" + strings.Join(in.Images, "\x01") + "\x00" +
			strings.Join(in.Audio, "\x01") + "\x00" + strings.Join(in.Video, "\x01") + "\x00"
		for _, ch := range r.V.Choices {
			k += NormalizeText(ch) + "\x01"
		}
		qs = append(qs, questionText{digest(k), r.Loc, "/inputs/text", namespace(r.Path, model.FormatItem)})
	}
	for _, r := range c.ds.B2 {
		if !r.Typed || strings.TrimSpace(r.V.Question) == "" {
			continue
		}
		var src []string
		for _, g := range r.V.Gold {
			src = append(src, g.SourceID)
		}
		sort.Strings(src)
		k := NormalizeText(r.V.Question) + "\x00" + r.V.Modality + "\x00" + strings.Join(src, "\x01")
		qs = append(qs, questionText{digest(k), r.Loc, "/question", namespace(r.Path, model.FormatB2)})
	}
	for _, r := range c.ds.V2 {
		if r.Typed && strings.TrimSpace(r.V.Question) != "" {
			qs = append(qs, questionText{digest(NormalizeText(r.V.Question)), r.Loc, "/question", namespace(r.Path, model.FormatV2Question)})
		}
	}
	for _, r := range c.ds.RAG {
		if r.Typed && strings.TrimSpace(r.V.Query) != "" {
			qs = append(qs, questionText{digest(NormalizeText(r.V.Query)), r.Loc, "/query", namespace(r.Path, model.FormatRAGQuestion)})
		}
	}
	sort.SliceStable(qs, func(i, j int) bool {
		if qs[i].loc.Path != qs[j].loc.Path {
			return qs[i].loc.Path < qs[j].loc.Path
		}
		return qs[i].loc.Line < qs[j].loc.Line
	})
	first := map[string]dataset.Loc{}
	for _, q := range qs {
		// Different formats never collide: the pointer names the field, and
		// a b-2 question is not a duplicate of a v2 question with equal text.
		k := q.space + "\x00" + q.pointer + "\x00" + q.key
		if f, dup := first[k]; dup {
			c.add(ruleDuplicateQuestion.At(q.loc.Path, q.loc.Line, q.pointer,
				"same question as %s (after normalising whitespace, width and case)", loc(f)))
			continue
		}
		first[k] = q.loc
	}
}

// digest is the comparison key kept for a question: the SHA-256 of its
// normalised text (and choices, sources), so a million questions hold 32
// bytes each, not their text twice.
func digest(k string) string {
	sum := sha256.Sum256([]byte(k))
	return string(sum[:])
}

// NormalizeText is the comparison form of a question: NFKC's width folding
// for the characters that matter in practice (full-width ASCII U+FF01–U+FF5E
// → U+0021–U+007E, ideographic space U+3000 → space), every run of white
// space collapsed to one space, leading and trailing space trimmed, and
// Latin letters lower-cased. CJK text is left as it is. The width folding is
// textnorm.FoldWidth; why this key collapses whitespace instead of dropping
// it (answer.Normalize, audit's compact) is written in package textnorm.
func NormalizeText(s string) string {
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
