package audit

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/model"
)

// Leakage (seed 003 §3.3, §4.5): the same text on both sides of a split, a
// duplicate family split across splits, and gold answers written into the
// retrievable corpus.

var (
	ruleLeakQuestion = finding.Register(finding.Rule{
		Code: "audit.leak-question-copy", Severity: finding.Error, Family: "audit",
		Description: "No question of one split is a copy (identical after normalisation, or Jaccard ≥ 0.80 of their character 3-shingles, candidates found by MinHash) of a question in another split.",
		Source:      "seed 002 规模、分片与功效 (test 只放没参与过决策的题) / seed 003 §4.5",
		Hint:        "Drop the copy from test (or from dev): a test question seen during tuning measures memory.",
	})
	ruleLeakDocExact = finding.Register(finding.Rule{
		Code: "audit.leak-doc-exact", Severity: finding.Error, Family: "audit",
		Description: "No two documents in different splits have the same normalised text (SHA-256 of the text without whitespace and punctuation).",
		Source:      "seed 003 §3.3 (精确重复：规范化文本 SHA-256 相同；同一重复族必须进入同一数据划分)",
		Hint:        "Put both documents in the same split and give them one duplicate_family_id.",
	})
	ruleLeakDocNear = finding.Register(finding.Rule{
		Code: "audit.leak-doc-near", Severity: finding.Warning, Family: "audit",
		Description: "No two documents in different splits are near duplicates (Jaccard ≥ 0.92 of their character 5-shingles, candidates found by MinHash), for human confirmation.",
		Source:      "seed 003 §3.3 (文档近重复：MinHash/Jaccard 参考阈值 0.92，进入人工确认) / §4.5",
		Hint:        "Compare the two texts; if they are versions of one document (revision, scan, OCR), give them one duplicate_family_id and one split.",
	})
	ruleLeakChunkExact = finding.Register(finding.Rule{
		Code: "audit.leak-chunk-exact", Severity: finding.Error, Family: "audit",
		Description: "No two chunks of documents in different splits have the same normalised text.",
		Source:      "seed 003 §3.3 / §4.5",
		Hint:        "Keep one main chunk and record the other as an alias of the same split (§3.3).",
	})
	ruleLeakChunkNear = finding.Register(finding.Rule{
		Code: "audit.leak-chunk-near", Severity: finding.Warning, Family: "audit",
		Description: "No two chunks of documents in different splits are near duplicates (Jaccard ≥ 0.95 of their character shingles, candidates found by MinHash).",
		Source:      "seed 003 §3.3 (切片近重复：参考阈值 0.95，保留主切片和来源别名)",
		Hint:        "Check the two chunks; near-identical text on both sides of a split lets dev tuning see test evidence.",
	})
	ruleLeakFamily = finding.Register(finding.Rule{
		Code: "audit.leak-family-split", Severity: finding.Error, Family: "audit",
		Description: "All members of a duplicate_family_id (documents or questions) are in one split.",
		Source:      "seed 003 §3.3 (同一重复族必须进入同一数据划分) / §4.5 (相同 DOI、报告号、扫描版、修订版和近重复文档必须在同一 split)",
		Hint:        "Move the family's members into one split.",
	})
	ruleLeakGold = finding.Register(finding.Rule{
		Code: "audit.leak-gold-in-corpus", Severity: finding.Error, Family: "audit",
		Description: "No question together with its answer (both ≥ 8 characters) appears in one retrievable passage: the Q&A set was not written into the knowledge base.",
		Source:      "seed 003 §4.5 (Gold 问答、参考答案、qrels 绝不能写进 RAG 知识库) / §4.6",
		Hint:        "Remove the evaluation file from the corpus and re-index (the importer should allowlist corpus folders, §4.6).",
	})
	ruleLeakAnswer = finding.Register(finding.Rule{
		Code: "audit.leak-answer-in-corpus", Severity: finding.Warning, Family: "audit",
		Description: "A seed-003 reference answer (≥ 8 characters) does not appear verbatim in a retrievable passage outside the question's own gold evidence documents.",
		Source:      "seed 003 §4.5 (参考答案绝不能写进 RAG 知识库)",
		Hint:        "Check the passage: a copied answer (notes, FAQ, exported eval file) must leave the corpus; a genuine second source should become gold evidence.",
	})
)

// leakPair is one pair shown side by side.
type leakPair struct {
	Kind       string // "question", "document", "chunk", "family", "gold"
	Code       string
	Sim        float64
	Exact      bool
	LeftID     string
	LeftLoc    dataset.Loc
	LeftSplit  string
	LeftText   string
	RightID    string
	RightLoc   dataset.Loc
	RightSplit string
	RightText  string
}

var splitRank = map[string]int{"train": 0, "build": 0, "dev": 1, "test": 2}

// later orders two splits: the split that should not contain the other's
// text (test after dev after train); unknown names in byte order.
func later(a, b string) bool {
	ra, oka := splitRank[a]
	rb, okb := splitRank[b]
	if oka && okb {
		return ra > rb
	}
	return a > b
}

// leakRec is one text compared across splits: a question, a document or a
// chunk (doc: its document), where it stands and where its text is.
type leakRec struct {
	id, doc, split, text string
	loc                  dataset.Loc
	pointer              string
}

// crossSplit calls f on every pair of recs in different splits whose texts
// are identical or near (nearPairs: Jaccard ≥ near on shingle-grams)
// and that keep (nil: all) allows, in nearPairs's order; b is the record
// of the later split (the one that should not hold the other's text).
func crossSplit(recs []leakRec, shingle int, near float64, mh *minhasher, keep func(a, b *leakRec) bool, f func(p simPair, a, b leakRec)) {
	texts, splits := make([]string, len(recs)), make([]string, len(recs))
	for i, r := range recs {
		texts[i], splits[i] = r.text, r.split
	}
	pairs, _ := nearPairs(texts, splits, shingle, near, mh, func(i, j int) bool {
		return keep == nil || keep(&recs[i], &recs[j])
	})
	for _, p := range pairs {
		a, b := recs[p.I], recs[p.J]
		if later(a.split, b.split) {
			a, b = b, a
		}
		f(p, a, b)
	}
}

// pair is the side-by-side view of a (left) and b (right).
func (a leakRec) pair(kind, code string, p simPair, b leakRec) leakPair {
	return leakPair{Kind: kind, Code: code, Sim: p.Sim, Exact: p.Exact,
		LeftID: a.id, LeftLoc: a.loc, LeftSplit: a.split, LeftText: a.text, RightID: b.id, RightLoc: b.loc, RightSplit: b.split, RightText: b.text}
}

func leakage(ds *dataset.Dataset, qs []query, ps []passage, opt Options) ([]leakPair, finding.List) {
	var pairs []leakPair
	var out finding.List
	mh := newMinhasher(opt.MinHashes, opt.Seed)

	// Questions copied across splits.
	var qrecs []leakRec
	for _, q := range qs {
		if q.Split != "" && strings.TrimSpace(q.Text) != "" {
			qrecs = append(qrecs, leakRec{id: q.ID, split: q.Split, text: q.Text, loc: q.Loc, pointer: q.Pointer})
		}
	}
	crossSplit(qrecs, opt.QuestionShingle, opt.QuestionNear, mh, nil, func(p simPair, a, b leakRec) {
		how := fmt.Sprintf("a near copy (Jaccard %.2f of character shingles)", p.Sim)
		if p.Exact {
			how = "an exact copy (same normalised text)"
		}
		out = append(out, ruleLeakQuestion.At(ds.Path(b.loc), int(b.loc.Line), b.pointer, "%s question %s is %s of %s question %s (%s)", b.split, b.id, how, a.split, a.id, locString(ds, a.loc)))
		pairs = append(pairs, a.pair("question", ruleLeakQuestion.Code, p, b))
	})

	// Documents across splits.
	var docs []leakRec
	docSplit := map[string]string{}
	for _, r := range ds.Documents {
		if !r.Typed {
			continue
		}
		docSplit[r.V.DocID] = r.V.Split
		if r.V.Text != nil && r.V.Split != "" {
			docs = append(docs, leakRec{id: r.V.DocID, split: r.V.Split, text: *r.V.Text, loc: r.Loc})
		}
	}
	reportedDocs := map[[2]string]bool{}
	crossSplit(docs, opt.DocShingle, opt.DocNear, mh, nil, func(p simPair, a, b leakRec) {
		rule, how := ruleLeakDocNear, fmt.Sprintf("a near duplicate (Jaccard %.3f ≥ %.2f of character shingles)", p.Sim, opt.DocNear)
		if p.Exact {
			rule, how = ruleLeakDocExact, "an exact duplicate (same normalised text)"
		}
		reportedDocs[[2]string{a.id, b.id}] = true
		reportedDocs[[2]string{b.id, a.id}] = true
		out = append(out, rule.At(ds.Path(b.loc), int(b.loc.Line), "/text", "%s document %s is %s of %s document %s (%s)", b.split, b.id, how, a.split, a.id, locString(ds, a.loc)))
		pairs = append(pairs, a.pair("document", rule.Code, p, b))
	})

	// Chunks across splits (split of the chunk's document); pairs inside an
	// already reported document pair are not repeated.
	var chunks []leakRec
	for _, r := range ds.Chunks {
		if !r.Typed || strings.TrimSpace(r.V.Text) == "" {
			continue
		}
		if s := docSplit[r.V.DocID]; s != "" {
			chunks = append(chunks, leakRec{id: r.V.ChunkID, doc: r.V.DocID, split: s, text: r.V.Text, loc: r.Loc})
		}
	}
	crossSplit(chunks, opt.DocShingle, opt.ChunkNear, mh, func(a, b *leakRec) bool {
		return !reportedDocs[[2]string{a.doc, b.doc}]
	}, func(p simPair, a, b leakRec) {
		rule, how := ruleLeakChunkNear, fmt.Sprintf("a near duplicate (Jaccard %.3f ≥ %.2f of character shingles)", p.Sim, opt.ChunkNear)
		if p.Exact {
			rule, how = ruleLeakChunkExact, "an exact duplicate (same normalised text)"
		}
		out = append(out, rule.At(ds.Path(b.loc), int(b.loc.Line), "/text", "chunk %s (%s, %s) is %s of chunk %s (%s, %s)", b.id, b.doc, b.split, how, a.id, a.doc, a.split))
		pairs = append(pairs, a.pair("chunk", rule.Code, p, b))
	})

	// Duplicate families across splits (documents and seed-003 questions).
	type member struct {
		kind, id, split, text string
		loc                   dataset.Loc
		pointer               string
	}
	fams := map[string][]member{}
	var famOrder []string
	addMember := func(fam string, m member) {
		if fam == "" || m.split == "" {
			return
		}
		if _, ok := fams[fam]; !ok {
			famOrder = append(famOrder, fam)
		}
		fams[fam] = append(fams[fam], m)
	}
	for _, r := range ds.Documents {
		if r.Typed {
			t := ""
			if r.V.Text != nil {
				t = *r.V.Text
			}
			if t == "" {
				t = r.V.Title
			}
			addMember("doc:"+r.V.DuplicateFamilyID, member{"document", r.V.DocID, r.V.Split, t, r.Loc, "/duplicate_family_id"})
		}
	}
	for _, q := range qs {
		if q.Family != "" {
			addMember("q:"+q.Family, member{"question", q.ID, q.Split, q.Text, q.Loc, "/duplicate_family_id"})
		}
	}
	for _, key := range famOrder {
		if strings.HasSuffix(key, ":") {
			continue
		}
		ms := fams[key]
		first := ms[0]
		for _, m := range ms[1:] {
			if m.split == first.split {
				continue
			}
			a, b := first, m
			if later(a.split, b.split) {
				a, b = b, a
			}
			fam := key[strings.Index(key, ":")+1:]
			out = append(out, ruleLeakFamily.At(ds.Path(m.loc), int(m.loc.Line), m.pointer, "duplicate family %s: %s %s is in %s but %s %s is in %s", fam, m.kind, m.id, m.split, first.kind, first.id, first.split))
			pairs = append(pairs, leakPair{Kind: "family " + fam, Code: ruleLeakFamily.Code, Sim: 1,
				LeftID: a.id, LeftLoc: a.loc, LeftSplit: a.split, LeftText: a.text, RightID: b.id, RightLoc: b.loc, RightSplit: b.split, RightText: b.text})
		}
	}

	// Gold in the corpus (§4.5): each question's passages holding its
	// answer, found through an index of the answers' first bytes (one pass
	// over the passages' bytes, not one per question).
	pkeys := make([]string, len(ps))
	for i, p := range ps {
		pkeys[i] = string(bare(p.Text, false))
	}
	var eligible []int
	var qkeys, answers []string
	for n, q := range qs {
		if q.Refuse || isRefusal(q.Answer, opt.RefusalPhrases) {
			continue
		}
		qk, ak := string(bare(q.Text, false)), string(bare(q.Answer, false))
		if len([]rune(ak)) < opt.MinLeakChars || ak == "" {
			continue
		}
		eligible = append(eligible, n)
		qkeys, answers = append(qkeys, qk), append(answers, ak)
	}
	hits := answerHits(pkeys, answers)
	for e, n := range eligible {
		q, qk := qs[n], qkeys[e]
		longQ := len([]rune(qk)) >= opt.MinLeakChars
		for _, i := range hits[e] {
			p := ps[i]
			switch {
			case longQ && strings.Contains(pkeys[i], qk):
				out = append(out, ruleLeakGold.At(ds.Path(q.Loc), int(q.Loc.Line), q.Pointer, "question %s and its answer both appear in passage %s (%s)", q.ID, p.ID, locString(ds, p.Loc)))
			case q.Format == model.FormatRAGQuestion && !slices.Contains(q.GoldDocs, p.Doc):
				out = append(out, ruleLeakAnswer.At(ds.Path(q.Loc), int(q.Loc.Line), "/reference_answer", "reference answer of %s appears verbatim in passage %s (%s) outside its gold documents", q.ID, p.ID, locString(ds, p.Loc)))
			default:
				continue // v2 answers are clause text by design; a RAG answer in its own gold document is evidence
			}
			pairs = append(pairs, leakPair{Kind: "gold", Code: out[len(out)-1].Code, Sim: 1, Exact: true,
				LeftID: q.ID, LeftLoc: q.Loc, LeftSplit: q.Split, LeftText: q.Text + " → " + q.Answer,
				RightID: p.ID, RightLoc: p.Loc, RightSplit: docSplit[p.Doc], RightText: p.Text})
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].Kind < pairs[j].Kind })
	return pairs, out
}

// answerHits returns, for each answer, the passages (indices into pkeys,
// ascending) whose text contains it. The distinct answers are sorted, so
// the answers starting with the same w bytes (w: the shortest answer's
// length, at most 16) form one contiguous run; each passage is scanned once,
// and at a byte offset whose w bytes start a run, the answers that are
// prefixes of the text there are found by binary search in that run:
//
//	hi := the text from the offset (at most the longest answer's length)
//	a  := the largest answer ≤ hi;  l := lcp(a, hi)
//	l = len(a): a is a prefix of hi (a hit); continue with hi[:len(a)−1]
//	otherwise:  every answer that is a prefix of hi is a prefix of
//	            hi[:l] (a longer one would sort after a); continue with hi[:l]
//
// until hi is shorter than w. Each step is a hit or shortens hi, so the work
// is the passages' bytes times log(answers), plus the matches — not
// answers × passages, nor the passages' bytes times the answers sharing a
// prefix (which grows with the number of answers).
func answerHits(pkeys, answers []string) [][]int {
	hits := make([][]int, len(answers))
	if len(answers) == 0 {
		return hits
	}
	w, longest := 16, 0
	for _, a := range answers {
		w, longest = min(w, len(a)), max(longest, len(a))
	}
	if w == 0 {
		return hits
	}
	order := make([]int, len(answers))
	for e := range order {
		order[e] = e
	}
	sort.SliceStable(order, func(x, y int) bool { return answers[order[x]] < answers[order[y]] })
	var uniq []string // distinct answers, ascending
	var ids [][]int   // ids[u]: the answers equal to uniq[u], ascending
	for _, e := range order {
		if n := len(uniq); n > 0 && uniq[n-1] == answers[e] {
			ids[n-1] = append(ids[n-1], e)
			continue
		}
		uniq = append(uniq, answers[e])
		ids = append(ids, []int{e})
	}
	type run struct{ lo, hi int } // uniq[lo:hi] share their first w bytes
	byPrefix := map[string]run{}
	for u := 0; u < len(uniq); {
		v := u + 1
		for v < len(uniq) && uniq[v][:w] == uniq[u][:w] {
			v++
		}
		byPrefix[uniq[u][:w]] = run{u, v}
		u = v
	}
	for i, key := range pkeys {
		for off := 0; off+w <= len(key); off++ {
			r, ok := byPrefix[key[off:off+w]]
			if !ok {
				continue
			}
			hi := key[off:min(len(key), off+longest)]
			for len(hi) >= w {
				cand := uniq[r.lo:r.hi]
				j := sort.Search(len(cand), func(x int) bool { return cand[x] > hi }) - 1
				if j < 0 {
					break
				}
				a := cand[j]
				l := 0
				for l < len(a) && a[l] == hi[l] {
					l++
				}
				if l < len(a) {
					hi = hi[:l]
					continue
				}
				for _, e := range ids[r.lo+j] {
					if h := hits[e]; len(h) == 0 || h[len(h)-1] != i {
						hits[e] = append(hits[e], i)
					}
				}
				hi = hi[:len(a)-1]
			}
		}
	}
	return hits
}
