package audit

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/model"
)

func ragQ(line int, qid, split, query string, answerable bool, answer *string, goldDoc, family string) dataset.Rec[model.RAGQuestion] {
	q := model.RAGQuestion{QID: qid, Query: query, Answerable: answerable, ReferenceAnswer: answer, Split: split, DuplicateFamilyID: family}
	if goldDoc != "" {
		q.GoldEvidenceGroups = []model.EvidenceAnchor{{DocID: goldDoc}}
	}
	return dataset.Rec[model.RAGQuestion]{Loc: testFiles.At("questions.jsonl", line, 0), Typed: true, V: q}
}

func ragDoc(line int, id, split, family, text string) dataset.Rec[model.RAGDocument] {
	return dataset.Rec[model.RAGDocument]{Loc: testFiles.At("documents.jsonl", line, 0), Typed: true,
		V: model.RAGDocument{DocID: id, Title: id, Split: split, DuplicateFamilyID: family, Text: str(text)}}
}

func ragChunk(line int, id, doc, text string) dataset.Rec[model.RAGChunk] {
	return dataset.Rec[model.RAGChunk]{Loc: testFiles.At("chunks.jsonl", line, 0), Typed: true,
		V: model.RAGChunk{ChunkID: id, DocID: doc, Text: text}}
}

const geo = "演示矿区位于示例地区北部，出露地层以侏罗系火山岩为主，斑岩体呈岩株状侵入，蚀变分带自内向外依次为钾化带、绢英岩化带和青磐岩化带，铜矿化主要赋存于绢英岩化带中。"

func TestLeakageRAG(t *testing.T) {
	ds := &dataset.Dataset{
		RAG: []dataset.Rec[model.RAGQuestion]{
			// q1 answer sits in its own gold document d1: evidence, silent.
			ragQ(1, "q1", "dev", "演示矿区的铜矿化主要赋存于哪个蚀变带？", true, str("铜矿化主要赋存于绢英岩化带中"), "d1", ""),
			// q2's exact copy in test (full-width punctuation and spaces differ only).
			ragQ(2, "q2", "dev", "演示钻孔 ZK1203 在 125.4 至 127.2 米的铜品位是多少？", true, str("0.86%"), "d1", ""),
			ragQ(3, "q2t", "test", "演示钻孔ZK1203在125.4至127.2米的铜品位是多少?", true, str("0.86%"), "d1", ""),
			// q4: question + answer both inside chunk c3 (the Q&A file was indexed).
			ragQ(4, "q4", "test", "斑岩铜矿常见哪些蚀变找矿标志？", true, str("钾化、绢英岩化和青磐岩化分带"), "d2", "qf1"),
			// q5: answer (≥ 8 chars) found in d3, not its gold document d2.
			ragQ(5, "q5", "test", "示例岩体的侵入时代是什么？", true, str("晚侏罗世侵入的花岗闪长斑岩"), "d2", "qf1"),
			// q6 shares family qf1 with q4/q5 but sits in dev: family across splits.
			ragQ(6, "q6", "dev", "示例岩体属于什么岩性？", true, str("花岗闪长斑岩"), "d2", "qf1"),
		},
		Documents: []dataset.Rec[model.RAGDocument]{
			ragDoc(1, "d1", "train", "f1", geo),
			ragDoc(2, "d1-scan", "test", "f1", geo), // same family, other split; exact duplicate too
			ragDoc(3, "d2", "dev", "f2", "示例岩体为晚侏罗世侵入的花岗闪长斑岩。"),
			ragDoc(4, "d3", "train", "f3", "区域资料：示例岩体为晚侏罗世侵入的花岗闪长斑岩，与成矿关系密切。"),
		},
		Chunks: []dataset.Rec[model.RAGChunk]{
			ragChunk(1, "c1", "d1", geo),
			ragChunk(2, "c1s", "d1-scan", geo), // inside the reported d1/d1-scan pair: not repeated
			ragChunk(3, "c3", "d3", "FAQ：斑岩铜矿常见哪些蚀变找矿标志？答：钾化、绢英岩化和青磐岩化分带。"),
			ragChunk(4, "c4", "d2", "绢英岩化带中铜品位较高，局部可达百分之一以上，钻孔揭示矿体厚度稳定。"),
			ragChunk(5, "c5", "d3", "绢英岩化带中铜品位较高，局部可达百分之一以上，钻孔揭示矿体厚度稳定！"), // exact (punctuation only) to c4 across dev/train
			ragChunk(6, "c6", "d3", "区域资料：示例岩体为晚侏罗世侵入的花岗闪长斑岩，与成矿关系密切。"),
		},
	}
	opt := DefaultOptions().withDefaults()
	qs := queries(withFiles(ds))
	pairs, fs := leakage(withFiles(ds), qs, corpusPassages(withFiles(ds)), opt)
	var got []string
	for _, f := range fs {
		got = append(got, f.Path+":"+itoaT(f.Line)+":"+f.Code)
	}
	sort.Strings(got)
	// Expected, worked out by hand:
	//   c4 (d2, dev) / c5 (d3, train) differ only in the final 。/！: exact; train < dev, so the
	//   finding sits on the later split's chunk c4 (line 4). c1/c1s lie inside the reported
	//   d1/d1-scan document pair and are not repeated.
	//   q1's answer is in c1 (its gold document d1: silent) and in c1s, a chunk of the scan
	//   d1-scan, which is not its gold document: warning (the duplicate carries the answer over).
	//   q5's answer is in c6 (document d3, not its gold d2): warning.
	//   family qf1: first member q4 is in test; q5 (test) agrees; q6 (dev) differs → one finding at line 6.
	var want []string
	want = []string{
		"chunks.jsonl:4:audit.leak-chunk-exact",
		"questions.jsonl:1:audit.leak-answer-in-corpus",
		"documents.jsonl:2:audit.leak-doc-exact",
		"documents.jsonl:2:audit.leak-family-split",
		"questions.jsonl:3:audit.leak-question-copy",
		"questions.jsonl:4:audit.leak-gold-in-corpus",
		"questions.jsonl:5:audit.leak-answer-in-corpus",
		"questions.jsonl:6:audit.leak-family-split",
	}
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		for _, f := range fs {
			t.Log(f.String())
		}
	}
	// Every finding has its pair in the report, shown side by side.
	if len(pairs) != len(want) {
		t.Errorf("pairs = %d, want %d", len(pairs), len(want))
	}
	for _, p := range pairs {
		if p.LeftText == "" || p.RightText == "" {
			t.Errorf("pair %+v lacks a side", p)
		}
	}
}

func TestLeakageNearDocThreshold(t *testing.T) {
	// Two documents of ~250 characters that differ by one character: 5-shingles lose
	// 5 and gain 5 of ~240, J ≈ 235/245 ≈ 0.96 — near at 0.92, not exact, and below 0.99.
	long := geo + "矿区内钻孔揭示矿体呈似层状产出，平均厚度十二米，沿走向延伸约八百米，倾向北东，倾角二十至三十度。" +
		"样品分析由示例实验室完成，采用电感耦合等离子体质谱法测定铜、钼、金含量，内检合格率为百分之九十六。"
	b := strings.Replace(long, "北部", "北侧", 1)
	ds := &dataset.Dataset{Documents: []dataset.Rec[model.RAGDocument]{ragDoc(1, "a", "dev", "", long), ragDoc(2, "b", "test", "", b)}}
	_, fs := leakage(withFiles(ds), nil, nil, DefaultOptions().withDefaults())
	if len(fs) != 1 || fs[0].Code != "audit.leak-doc-near" || fs[0].Line != 2 {
		t.Errorf("got %v", fs)
	}
	// The same pair in one split is not leakage.
	ds.Documents[1].V.Split = "dev"
	if _, fs := leakage(withFiles(ds), nil, nil, DefaultOptions().withDefaults()); len(fs) != 0 {
		t.Errorf("same split: %v", fs)
	}
	// A threshold of 0.99 lets the pair through.
	ds.Documents[1].V.Split = "test"
	opt := DefaultOptions()
	opt.DocNear = 0.99
	if _, fs := leakage(withFiles(ds), nil, nil, opt.withDefaults()); len(fs) != 0 {
		t.Errorf("DocNear 0.99: %v", fs)
	}
}

func TestRefusalAcrossFormats(t *testing.T) {
	// b-2 unanswerable and seed-003 answerable=false questions are audited too.
	ds := &dataset.Dataset{
		B2: []dataset.Rec[model.B2]{{Loc: testFiles.At("b2.jsonl", 1, 0), Typed: true,
			V: model.B2{QueryID: "b1", Question: "演示矿区的铜矿化主要赋存于哪个蚀变带？", Unanswerable: true, Split: "test"}}},
		RAG: []dataset.Rec[model.RAGQuestion]{
			ragQ(1, "q1", "test", "示例地区金矿的品位是多少？", false, nil, "", ""),
			ragQ(2, "q2", "test", "演示矿区出露什么地层？", true, str("侏罗系火山岩"), "d1", ""),
		},
		Chunks: []dataset.Rec[model.RAGChunk]{ragChunk(1, "c1", "d1", geo)},
	}
	// b1 scores ≈ 0.20 against c1 (its question is nearly a sentence of c1), q1 ≈ 0.06:
	// a threshold of 0.15 flags b1 only.
	opt := DefaultOptions()
	opt.RefusalThreshold = 0.15
	r, fs := Audit(withFiles(ds), opt)
	var codes []string
	for _, f := range fs {
		codes = append(codes, f.Path+":"+itoaT(f.Line)+":"+f.Code)
	}
	if strings.Join(codes, ",") != "b2.jsonl:1:audit.refusal-similar" {
		t.Errorf("findings: %v", codes)
	}
	for _, s := range r.Sections {
		if s.ID != "refusal" {
			continue
		}
		tab := s.Tables[1]
		if len(tab.Rows) != 2 || tab.Rows[0][1].Text != "b1" || tab.Rows[0][6].Text != "c1" || tab.Rows[0][8].Text != "REVIEW" {
			t.Errorf("ranking rows: %+v", tab.Rows)
		}
		dist := s.Tables[0]
		if *dist.Rows[0][1].Value != 1 || *dist.Rows[1][1].Value != 2 {
			t.Errorf("distribution n: %+v", dist.Rows)
		}
	}
	// No corpus: one info finding instead, and the section's note says the
	// 2 refuse questions exist but were not compared (not "no refuse questions").
	ds.Chunks = nil
	r, fs = Audit(withFiles(ds), opt)
	if len(fs) != 1 || fs[0].Code != "audit.refusal-no-corpus" {
		t.Errorf("no corpus: %v", fs)
	}
	for _, s := range r.Sections {
		if s.ID == "refusal" && (len(s.Notes) != 1 || !strings.HasPrefix(s.Notes[0], "2 refuse / unanswerable question(s), but no corpus passage")) {
			t.Errorf("no corpus notes: %q", s.Notes)
		}
	}
}

func TestQuestionTypeTable(t *testing.T) {
	mk := func(qt string, answerable bool) dataset.Rec[model.RAGQuestion] {
		return dataset.Rec[model.RAGQuestion]{Typed: true, V: model.RAGQuestion{QuestionType: qt, Answerable: answerable}}
	}
	ds := &dataset.Dataset{RAG: []dataset.Rec[model.RAGQuestion]{
		mk("table_numeric", true), mk("Table-Numeric", true), mk("factoid", true), mk("multi_hop", true),
		mk("table_numeric", false), mk("weird", true), mk("", true), mk("comparison", true),
	}}
	tab, ok := questionTypeTable(withFiles(ds))
	if !ok {
		t.Fatal("no table")
	}
	// 8 questions: numeric 2 (the unanswerable table_numeric goes to 无答案), direct 1, multi-hop 1,
	// comparison 1, 无答案 1, unknown 2 ("weird", empty).
	wantN := []float64{1, 2, 0, 1, 1, 0, 1}
	for i, w := range wantN {
		if got := *tab.Rows[i][2].Value; got != w {
			t.Errorf("row %d (%s) n = %v, want %v", i, tab.Rows[i][0].Text, got, w)
		}
	}
	// Share of numeric = 2/8 = 25 %, target 20 % → +5.0 pp.
	if got := *tab.Rows[1][4].Value; got != 5 {
		t.Errorf("numeric diff = %v, want 5", got)
	}
	if !strings.Contains(strings.Join(tab.Notes, " "), "weird (1)") {
		t.Errorf("unknown types not listed: %v", tab.Notes)
	}
}

// v2: an answer is clause text by design (silent); the question written into
// the corpus together with its answer is a leak.
func TestLeakageV2GoldInCorpus(t *testing.T) {
	ds := &dataset.Dataset{
		V2: []dataset.Rec[model.V2Question]{
			v2q(1, "D1", "direct", "test", "v2", str("生产经营单位应当建立安全生产档案，保存期限不少于三年。"), false, "law 第三条"),
			v2q(2, "D2", "direct", "test", "v2", str("生产经营单位应当每月至少开展一次全面的事故隐患排查。"), false, "law 第四条"),
		},
		Clauses: []dataset.Rec[model.Clause]{
			clause(1, "law", "第三条", "生产经营单位应当建立安全生产档案，保存期限不少于三年。"),
			clause(2, "law", "第四条", "生产经营单位应当每月至少开展一次全面的事故隐患排查。"),
			// An exported Q&A sheet indexed as a distractor passage: D2's question and answer.
			clause(3, "faq-export", "", "问：全面的事故隐患排查应当多久开展一次？答：生产经营单位应当每月至少开展一次全面的事故隐患排查。"),
		},
	}
	ds.V2[1].V.Question = "全面的事故隐患排查应当多久开展一次？" // ≥ 8 characters, as MinLeakChars requires
	_, fs := leakage(withFiles(ds), queries(withFiles(ds)), corpusPassages(withFiles(ds)), DefaultOptions().withDefaults())
	if len(fs) != 1 || fs[0].Code != "audit.leak-gold-in-corpus" || fs[0].Line != 2 {
		t.Errorf("got %v", fs)
	}
}

// TestAnswerHitsMatchesContains holds answerHits (prefix runs + binary
// search) to its definition: answer e's hits are exactly the passages p, in
// ascending order, with strings.Contains(p, answer e). The texts come from
// a 3-letter alphabet so that answers share prefixes, nest ("ab" ⊂ "abab")
// and repeat, the cases the search's steps are about; some answers are Han
// text (multi-byte runes).
func TestAnswerHitsMatchesContains(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 52))
	pick := func(alpha []string, lo, hi int) string {
		var b strings.Builder
		for k := lo + r.IntN(hi-lo+1); k > 0; k-- {
			b.WriteString(alpha[r.IntN(len(alpha))])
		}
		return b.String()
	}
	for round := 0; round < 40; round++ {
		alpha := []string{"a", "b", "c"}
		if round%4 == 3 {
			alpha = []string{"铜", "矿", "化"}
		}
		var passages, answers []string
		for i := 0; i < 30; i++ {
			passages = append(passages, pick(alpha, 0, 60))
		}
		for e := 0; e < 50; e++ {
			switch a := pick(alpha, 2+round%5, 9); {
			case e > 0 && r.IntN(5) == 0:
				answers = append(answers, answers[r.IntN(e)]) // a repeated answer
			case e > 0 && r.IntN(5) == 0:
				answers = append(answers, answers[r.IntN(e)]+a) // one that extends another
			default:
				answers = append(answers, a)
			}
		}
		got := answerHits(passages, answers)
		for e, a := range answers {
			var want []int
			for i, p := range passages {
				if strings.Contains(p, a) {
					want = append(want, i)
				}
			}
			if fmt.Sprint(got[e]) != fmt.Sprint(want) {
				t.Fatalf("round %d: answer %d %q: hits %v, want %v", round, e, a, got[e], want)
			}
		}
	}
}
