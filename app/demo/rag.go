package demo

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"eval752/app/model"
)

// ragSet is the generated seed-003 part of the demo.
type ragSet struct {
	Docs      []model.RAGDocument
	Pages     []model.RAGPage
	Chunks    []model.RAGChunk
	Questions []model.RAGQuestion
	Judgments []model.RAGJudgment
	Preds     map[string][]model.RAGPrediction // run → predictions
}

// ragDocText is a document's text: its pages joined by "\n", with each page's
// [start, end) in code points.
type ragDocText struct {
	src   ragDocSrc
	text  string
	runes []rune
	pages [][2]int
}

func newDocText(d ragDocSrc) *ragDocText {
	t := &ragDocText{src: d}
	off := 0
	for i, p := range d.Pages {
		if i > 0 {
			off++ // the "\n" between pages
		}
		n := utf8.RuneCountInString(p)
		t.pages = append(t.pages, [2]int{off, off + n})
		off += n
	}
	t.text = strings.Join(d.Pages, "\n")
	t.runes = []rune(t.text)
	return t
}

// find returns the code-point span of the (skip+1)-th occurrence of quote.
func (t *ragDocText) find(quote string, skip int) (start, end int, err error) {
	from := 0
	for {
		i := strings.Index(t.text[from:], quote)
		if i < 0 {
			return 0, 0, fmt.Errorf("demo: quote %q not in %s", quote, t.src.ID)
		}
		if skip == 0 {
			start = utf8.RuneCountInString(t.text[:from+i])
			return start, start + utf8.RuneCountInString(quote), nil
		}
		skip--
		from += i + len(quote)
	}
}

// page returns the 1-based page holding [start, end), or an error when the
// span crosses a page break.
func (t *ragDocText) page(start, end int) (int, error) {
	for i, p := range t.pages {
		if start >= p[0] && end <= p[1] {
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("demo: span [%d,%d) of %s crosses pages", start, end, t.src.ID)
}

// bbox places a span on an A4 page (595×842 pt) as the lines it would
// occupy in a single 451 pt column with 72 pt margins: made up, but ordered
// and inside the page, as an anchor's bbox must be.
func (t *ragDocText) bbox(pageNo, start, end int) []float64 {
	perLine := 36 // CJK characters per line
	if t.src.Lang == "en" {
		perLine = 80
	}
	p := t.pages[pageNo-1]
	l0 := (start - p[0]) / perLine
	l1 := (end - 1 - p[0]) / perLine
	x0, x1 := 72.0, 523.0
	if l0 == l1 {
		x0 = 72 + float64((start-p[0])%perLine)*451/float64(perLine)
		x1 = 72 + float64((end-p[0]-1)%perLine+1)*451/float64(perLine)
	}
	r := func(v float64) float64 { return math.Round(v*10) / 10 }
	return []float64{r(x0), float64(90 + 16*l0), r(x1), float64(90 + 16*(l1+1))}
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func (t *ragDocText) spanSHA(start, end int) string {
	return sha256Hex([]byte(string(t.runes[start:end])))
}

func (t *ragDocText) versionID() string {
	return "docver_" + strings.TrimPrefix(t.src.ID, "doc_") + "_" + t.src.Version
}

// splitSentences cuts a page into sentences: after 。 and after ". " followed
// by an upper-case letter or digit. Offsets are code points within the page.
func splitSentences(page string) [][2]int {
	rs := []rune(page)
	var out [][2]int
	start := 0
	for i, r := range rs {
		cut := r == '。'
		if r == '.' && i+2 < len(rs) && rs[i+1] == ' ' && (unicode.IsUpper(rs[i+2]) || unicode.IsDigit(rs[i+2])) {
			cut = true
		}
		if cut || i == len(rs)-1 {
			out = append(out, [2]int{start, i + 1})
			start = i + 1
			for start < len(rs) && rs[start] == ' ' {
				start++
			}
		}
	}
	return out
}

// chunkPage groups a page's sentences into chunks of at least target code
// points (the last chunk of a page may be shorter): the demo runs' chunking.
func chunkPage(page string, lang string) [][2]int {
	target := 45
	if lang == "en" {
		target = 110
	}
	var out [][2]int
	cur := [2]int{-1, -1}
	for _, s := range splitSentences(page) {
		if cur[0] < 0 {
			cur = s
		} else {
			cur[1] = s[1]
		}
		if cur[1]-cur[0] >= target {
			out = append(out, cur)
			cur = [2]int{-1, -1}
		}
	}
	if cur[0] >= 0 {
		out = append(out, cur)
	}
	return out
}

type resolvedAnchor struct {
	doc        *ragDocText
	start, end int
	page       int
}

func buildRAG() (*ragSet, error) {
	set := &ragSet{Preds: map[string][]model.RAGPrediction{}}
	docs := map[string]*ragDocText{}
	var order []*ragDocText
	for _, d := range ragDocs {
		t := newDocText(d)
		docs[d.ID] = t
		order = append(order, t)
		cc, pc := len(t.runes), len(d.Pages)
		yes := true
		text := t.text
		set.Docs = append(set.Docs, model.RAGDocument{
			DocID: d.ID, Title: d.Title, SourceVersion: d.Version, DocumentVersionID: t.versionID(),
			RawSHA256: sha256Hex([]byte(t.text)), LicenseID: "EVAL752-DEMO-CC0", RedistributionAllowed: &yes,
			Confidentiality: "public", SecurityReview: "passed", ReviewState: "CLOUD_APPROVED", Searchable: &yes,
			Split: d.Split, DuplicateFamilyID: d.Family, Text: &text, CharCount: &cc, PageCount: &pc, Language: d.Lang,
			// what the approval binds (seed 003 §1.2): fictional profiles,
			// hashed; the manifest hash is set below, over the chunks
			CloudPolicyID: "demo-cloud-policy-v1", CloudApprovedBy: "demo-reviewer (fictional)", CloudApprovedAt: "2026-07-11T00:00:00Z",
			ParserProfileHash: sha256Hex([]byte("eval752 demo parser profile v1")), OCRProfileHash: sha256Hex([]byte("eval752 demo ocr profile: none")),
			NormalizationProfileHash: sha256Hex([]byte("eval752 demo normalization profile v1")), ChunkProfileHash: sha256Hex([]byte("eval752 demo chunk profile v1")),
		})
		manifest := sha256.New()
		for i, p := range t.pages {
			s, e := p[0], p[1]
			txt := d.Pages[i]
			set.Pages = append(set.Pages, model.RAGPage{DocID: d.ID, DocumentVersionID: t.versionID(), PageNo: i + 1, CharStart: &s, CharEnd: &e, Text: &txt})
			for j, c := range chunkPage(d.Pages[i], d.Lang) {
				cs, ce := p[0]+c[0], p[0]+c[1]
				pn := i + 1
				set.Chunks = append(set.Chunks, model.RAGChunk{
					ChunkID: fmt.Sprintf("chk_%s_p%d_%02d", strings.TrimPrefix(d.ID, "doc_"), i+1, j+1), DocID: d.ID,
					DocumentVersionID: t.versionID(), PageNo: &pn, CharStart: &cs, CharEnd: &ce,
					BBox: t.bbox(pn, cs, ce), Text: string(t.runes[cs:ce]), Searchable: &yes,
				})
				// the outbound manifest commits to every chunk text that
				// may be sent, in order, with its hash (seed 003 §1.2)
				c := set.Chunks[len(set.Chunks)-1]
				fmt.Fprintf(manifest, "%s\t%s\n", c.ChunkID, sha256Hex([]byte(c.Text)))
			}
		}
		set.Docs[len(set.Docs)-1].OutboundManifestSHA256 = hex.EncodeToString(manifest.Sum(nil))
	}
	resolve := func(a ragAnchor) (resolvedAnchor, error) {
		t := docs[a.Doc]
		if t == nil {
			return resolvedAnchor{}, fmt.Errorf("demo: unknown document %s", a.Doc)
		}
		s, e, err := t.find(a.Quote, a.Skip)
		if err != nil {
			return resolvedAnchor{}, err
		}
		p, err := t.page(s, e)
		if err != nil {
			return resolvedAnchor{}, err
		}
		return resolvedAnchor{t, s, e, p}, nil
	}
	anchorOf := func(r resolvedAnchor) model.EvidenceAnchor {
		s, e, p := r.start, r.end, r.page
		return model.EvidenceAnchor{DocID: r.doc.src.ID, DocumentVersionID: r.doc.versionID(), PageNo: &p,
			CharStart: &s, CharEnd: &e, BBox: r.doc.bbox(p, s, e), EvidenceSHA256: r.doc.spanSHA(s, e)}
	}
	// chunk spans, to check that every judged span sits inside one chunk of
	// the demo's chunking (so the demo's qrels are unambiguous).
	inOneChunk := func(r resolvedAnchor) bool {
		for _, c := range set.Chunks {
			if c.DocID == r.doc.src.ID && *c.CharStart <= r.start && r.end <= *c.CharEnd {
				return true
			}
		}
		return false
	}
	type judged struct {
		r      resolvedAnchor
		grade  int
		reason string
	}
	qJudged := map[string][]judged{}
	for i, q := range ragQuestions {
		no, yes := false, true
		rq := model.RAGQuestion{QID: q.QID, Query: q.Query, Answerable: q.Answer != "", AnswerAliases: q.Aliases,
			QuestionType: q.Type, Difficulty: q.Difficulty, Modality: q.Modality, Split: q.Split, Hops: q.Hops,
			SecurityClassification: "public", RedistributionAllowed: &yes, GoldEvidenceGroups: []model.EvidenceAnchor{},
			CreatedBy: "human_written", ReviewStatus: "double_reviewed"}
		if i%3 == 1 {
			rq.CreatedBy = "llm_assisted"
		}
		if q.Answer != "" {
			a := q.Answer
			rq.ReferenceAnswer = &a
		}
		if q.Tol != nil {
			tol := &model.NumericTol{Unit: q.Unit}
			if q.Tol[1] > 0 {
				v := q.Tol[1]
				tol.Relative = &v
			} else {
				v := q.Tol[0]
				tol.Absolute = &v
			}
			rq.NumericTolerance = tol
		}
		if d := ragQuestionFamily(q); d != "" {
			rq.DuplicateFamilyID = d
		}
		for _, a := range q.Gold {
			r, err := resolve(a)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", q.QID, err)
			}
			if !inOneChunk(r) {
				return nil, fmt.Errorf("demo: %s gold %q crosses a chunk boundary", q.QID, a.Quote)
			}
			an := anchorOf(r)
			if a.Optional {
				an.Required = &no
			} else {
				an.Required = &yes
			}
			an.GroupID = a.Group
			if an.GroupID == "" {
				an.GroupID = "g1"
			}
			rq.GoldEvidenceGroups = append(rq.GoldEvidenceGroups, an)
			qJudged[q.QID] = append(qJudged[q.QID], judged{r, 3, "必要证据 / required gold evidence"})
		}
		for _, j := range q.Judged {
			r, err := resolve(j.ragAnchor)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", q.QID, err)
			}
			if !inOneChunk(r) {
				return nil, fmt.Errorf("demo: %s judged %q crosses a chunk boundary", q.QID, j.Quote)
			}
			qJudged[q.QID] = append(qJudged[q.QID], judged{r, j.Grade, j.Reason})
		}
		set.Questions = append(set.Questions, rq)
	}

	// The two runs. Their rankings come from a real BM25 over the chunks (so
	// they read naturally); the second run adds a simulated dense + rerank
	// stage (see simulateHybrid).
	bm := newBM25(set.Chunks)
	for _, q := range set.Questions {
		rel := map[string]int{} // chunk → best grade of a judged span inside it
		for _, j := range qJudged[q.QID] {
			for _, c := range set.Chunks {
				if c.DocID == j.r.doc.src.ID && *c.CharStart <= j.r.start && j.r.end <= *c.CharEnd && j.grade > rel[c.ChunkID] {
					rel[c.ChunkID] = j.grade
				}
			}
		}
		lex := bm.rank(q.Query)
		for _, run := range RunNames {
			p := simulateRAGRun(run, q, lex, rel, set.Chunks)
			set.Preds[run] = append(set.Preds[run], p)
		}
	}
	// Pool (seed 003 §4.2 step 8: the union of every system's candidates,
	// 初始建议每系统 Top 20): every chunk in the top PoolDepth of either run's
	// first-stage or reranked list that no judged span covers is judged 0
	// ("unrelated"), anchored to the whole chunk — except the planted
	// candidates of PlantedUnjudged, left out on purpose so that the report
	// shows what an unjudged candidate does (docs/demo.md).
	chunkByID := map[string]model.RAGChunk{}
	for _, c := range set.Chunks {
		chunkByID[c.ChunkID] = c
	}
	for qi, q := range set.Questions {
		covered := map[string]bool{}
		for _, j := range qJudged[q.QID] {
			for _, c := range set.Chunks {
				if c.DocID == j.r.doc.src.ID && *c.CharStart < j.r.end && j.r.start < *c.CharEnd {
					covered[c.ChunkID] = true
				}
			}
		}
		for _, pl := range PlantedUnjudged {
			if pl.QID == q.QID {
				if ids := set.Preds[pl.Run][qi].RetrievedChunkIDs; pl.Rank <= len(ids) && !covered[ids[pl.Rank-1]] {
					covered[ids[pl.Rank-1]] = true // not pooled: stays unjudged
				}
			}
		}
		var pool []string
		for _, run := range RunNames {
			p := set.Preds[run][qi]
			for _, ids := range [][]string{p.RetrievedChunkIDs, p.RerankedChunkIDs} {
				for k, id := range ids {
					if k < PoolDepth && !covered[id] {
						covered[id] = true
						pool = append(pool, id)
					}
				}
			}
		}
		sort.Strings(pool)
		for _, id := range pool {
			c := chunkByID[id]
			t := docs[c.DocID]
			qJudged[q.QID] = append(qJudged[q.QID], judged{resolvedAnchor{t, *c.CharStart, *c.CharEnd, *c.PageNo}, 0, "不相关或实体不符 / unrelated or a different product"})
		}
	}
	for qi, q := range set.Questions {
		for k, j := range qJudged[q.QID] {
			an := anchorOf(j.r)
			status := "agreed"
			if (qi+k)%7 == 3 {
				status = "adjudicated"
			}
			set.Judgments = append(set.Judgments, model.RAGJudgment{
				SchemaVersion: 1, QID: q.QID, Grade: j.grade, Reason: j.reason, DocID: an.DocID,
				DocumentVersionID: an.DocumentVersionID, PageNo: an.PageNo, CharStart: an.CharStart, CharEnd: an.CharEnd,
				BBox: an.BBox, EvidenceSHA256: an.EvidenceSHA256, AnnotatorID: fmt.Sprintf("ann_%c", 'A'+rune((qi+k)%3)),
				AdjudicationStatus: status,
			})
		}
	}
	return set, nil
}

// PoolDepth is the demo's pooling depth per system and list (seed 003 §4.2
// step 8: 初始建议每系统 Top 20).
const PoolDepth = 20

// PlantedCandidate is a retrieved candidate deliberately left out of the pool.
type PlantedCandidate struct {
	Run, QID string
	Rank     int // 1-based rank in the run's retrieved list
}

// PlantedUnjudged are the demo's deliberately unjudged candidates: bm25's
// rank-10 candidate of q_dev_004 and rank-9 candidate of q_test_007, two
// chunks that hybrid-rerank's final list does not hold. So bm25's seed-003
// figures at depth ≥ 9 (and MRR / nDCG without a cutoff) carry "unjudged:
// 2 items" while hybrid-rerank's seed-003 figures are fully judged.
var PlantedUnjudged = []PlantedCandidate{{Run: "bm25", QID: "q_dev_004", Rank: 10}, {Run: "bm25", QID: "q_test_007", Rank: 9}}

// ragQuestionFamily groups questions about the same product family (seed 003
// §3.3 duplicate_family_id; a family never spans splits).
func ragQuestionFamily(q ragQSrc) string {
	for _, a := range q.Gold {
		for _, d := range ragDocs {
			if d.ID == a.Doc {
				return d.Family
			}
		}
	}
	return ""
}

// bm25 ranks chunks for a query over character bigrams of CJK text and
// lower-cased words of Latin text (k1 = 1.2, b = 0.75):
//
//	score(q, c) = Σ_t idf(t) · tf(t,c)·(k1+1) / (tf(t,c) + k1·(1 − b + b·|c|/avg|c|))
//	idf(t)      = ln(1 + (N − df(t) + 0.5)/(df(t) + 0.5))
type bm25 struct {
	ids  []string
	tf   []map[string]int
	lens []float64
	avg  float64
	df   map[string]int
}

func tokens(s string) []string {
	var out []string
	var word []rune
	var prevCJK rune
	flush := func() {
		if len(word) > 0 {
			out = append(out, strings.ToLower(string(word)))
			word = word[:0]
		}
	}
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Han, r):
			flush()
			if prevCJK != 0 {
				out = append(out, string([]rune{prevCJK, r}))
			}
			prevCJK = r
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word = append(word, r)
		default:
			flush()
		}
		prevCJK = 0
	}
	flush()
	return out
}

func newBM25(chunks []model.RAGChunk) *bm25 {
	b := &bm25{df: map[string]int{}}
	total := 0.0
	for _, c := range chunks {
		tf := map[string]int{}
		ts := tokens(c.Text)
		for _, t := range ts {
			tf[t]++
		}
		for t := range tf {
			b.df[t]++
		}
		b.ids = append(b.ids, c.ChunkID)
		b.tf = append(b.tf, tf)
		b.lens = append(b.lens, float64(len(ts)))
		total += float64(len(ts))
	}
	b.avg = total / float64(len(chunks))
	return b
}

type scored struct {
	id    string
	score float64
}

// rank returns every chunk with its score, best first (ties by id).
func (b *bm25) rank(query string) []scored {
	const k1, bb = 1.2, 0.75
	n := float64(len(b.ids))
	seen := map[string]bool{}
	var q []string // distinct query terms in first-seen order: a fixed summation order keeps scores bit-identical
	for _, t := range tokens(query) {
		if !seen[t] {
			seen[t] = true
			q = append(q, t)
		}
	}
	out := make([]scored, len(b.ids))
	for i, id := range b.ids {
		s := 0.0
		for _, t := range q {
			f := float64(b.tf[i][t])
			if f == 0 {
				continue
			}
			df := float64(b.df[t])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			s += idf * f * (k1 + 1) / (f + k1*(1-bb+bb*b.lens[i]/b.avg))
		}
		out[i] = scored{id, s}
	}
	sortScored(out)
	return out
}

func sortScored(s []scored) {
	sort.SliceStable(s, func(i, j int) bool {
		if s[i].score != s[j].score {
			return s[i].score > s[j].score
		}
		return s[i].id < s[j].id
	})
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
