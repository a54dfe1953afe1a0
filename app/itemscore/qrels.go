package itemscore

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"slices"
	"strconv"
	"strings"
)

// chunkQrels holds the lines of one TREC qrels file whose qid is a seed-003
// question: chunk-level graded judgments (0–3) of those questions. Seed 003
// §10 writes one qrels.tsv per run ("由同一版本的全部…已判定源锚点…解析为
// 切片级视图", header `qid 0 chunk_id relevance_grade`), so the file is the
// run's resolved judgments, not a set of separate TREC units.
//
// Scope: a file in a runs/<name>/ folder (a bundle's or a plain folder's)
// applies to run <name> and <name>.retrieve, and to every run whose
// predictions or results come from that folder (config.yaml may name the
// run differently); a file anywhere else (a top-level input, corpus/)
// applies to every run.
type chunkQrels struct {
	path   string
	dir    string // dirOf(path)
	run    string // "<name>" for a runs/<name>/ file; "" = every run
	grades map[string]map[string]int
}

func newChunkQrels(p string) *chunkQrels {
	c := &chunkQrels{path: p, dir: dirOf(p), grades: map[string]map[string]int{}}
	c.run, _ = runFolder(p)
	return c
}

// add records a judgment; a chunk judged twice in one file keeps its
// highest grade (as anchored judgments do).
func (c *chunkQrels) add(qid, chunk string, grade int) {
	m := c.grades[qid]
	if m == nil {
		m = map[string]int{}
		c.grades[qid] = m
	}
	if old, ok := m[chunk]; !ok || grade > old {
		m[chunk] = grade
	}
}

// appliesTo reports whether the file's judgments are run r's.
func (c *chunkQrels) appliesTo(r *runOut) bool {
	if c.run == "" {
		return true
	}
	if r == nil {
		return false
	}
	return r.name == c.run || r.name == c.run+".retrieve" || slices.Contains(r.dirs, c.dir)
}

// runFolder returns <name> when p is a file directly inside a runs/<name>/
// folder (bundle entries "x.zip!runs/<name>/qrels.tsv" included).
func runFolder(p string) (string, bool) {
	d := strings.ReplaceAll(dirOf(p), "!", "/")
	parent := path.Base(path.Dir(d))
	name := path.Base(d)
	if parent != "runs" || name == "" || name == "." || name == "/" {
		return "", false
	}
	return name, true
}

// assignQrels gives every run the key of the chunk qrels files that apply
// to it (indices into sc.qrels, comma-joined; "" = none): gold views of
// seed-003 units are cached per (unit, key).
func (sc *scorer) assignQrels(runs []*runOut) {
	for _, r := range runs {
		r.qrelsKey = sc.qrelsKeyFor(r)
	}
}

func (sc *scorer) qrelsKeyFor(r *runOut) string {
	var idx []string
	for i := range sc.qrels {
		if sc.qrels[i].appliesTo(r) {
			idx = append(idx, strconv.Itoa(i))
		}
	}
	return strings.Join(idx, ",")
}

// qrelsPaths names the chunk qrels files of key (see qrelsKeyFor).
func (sc *scorer) qrelsPaths(key string) []string {
	var out []string
	for _, s := range strings.Split(key, ",") {
		if i, err := strconv.Atoi(s); err == nil && i >= 0 && i < len(sc.qrels) {
			out = append(out, sc.qrels[i].path)
		}
	}
	return out
}

// qrelsDigests returns, for each chunk qrels file named by key, the sha256
// of its judgments in canonical order ("qid docno grade" lines sorted): two
// files that judge the same chunks the same way have one digest whatever
// their line order, line ends or header line.
func (sc *scorer) qrelsDigests(key string) []string {
	var out []string
	for _, s := range strings.Split(key, ",") {
		i, err := strconv.Atoi(s)
		if err != nil || i < 0 || i >= len(sc.qrels) {
			continue
		}
		var lines []string
		for qid, docs := range sc.qrels[i].grades {
			for doc, g := range docs {
				lines = append(lines, qid+"\t"+doc+"\t"+strconv.Itoa(g)+"\n")
			}
		}
		slices.Sort(lines)
		h := sha256.New()
		for _, l := range lines {
			h.Write([]byte(l))
		}
		out = append(out, hex.EncodeToString(h.Sum(nil)))
	}
	return out
}

// qrelsFor merges the grades for qid of the files named by key, keeping a
// chunk's highest grade. ok is false when key names no file (the run has no
// chunk qrels at all); a nil map with ok means the files do not judge qid.
func (sc *scorer) qrelsFor(key, qid string) (map[string]int, bool) {
	if key == "" {
		return nil, false
	}
	var out map[string]int
	for _, s := range strings.Split(key, ",") {
		i, err := strconv.Atoi(s)
		if err != nil || i < 0 || i >= len(sc.qrels) {
			continue
		}
		for c, g := range sc.qrels[i].grades[qid] {
			if out == nil {
				out = map[string]int{}
			}
			if old, ok := out[c]; !ok || g > old {
				out[c] = g
			}
		}
	}
	return out, true
}
