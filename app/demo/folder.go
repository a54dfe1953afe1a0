package demo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Folder returns the demo's seed-003 experiment laid out as seed 003 §10
// writes it on disk (path → bytes): data/documents.jsonl, pages.jsonl,
// chunks.jsonl; eval/questions.jsonl (the bundle's rag-dev and rag-test
// sections, in that order) and anchored_judgments.jsonl; runs/<id>/
// config.yaml and predictions.jsonl. Every run's predictions file has the
// same name, so only the folder tells the runs apart: what the page's
// folder picker, a dropped folder and `eval752 score FOLDER` must get right.
func Folder() (map[string][]byte, error) {
	files, err := Files()
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	take := func(dst string, srcs ...string) error {
		var b []byte
		for _, src := range srcs {
			part, ok := files[src]
			if !ok {
				return fmt.Errorf("demo bundle has no %s", src)
			}
			b = append(b, part...)
		}
		out[dst] = b
		return nil
	}
	for _, m := range [][]string{
		{"data/documents.jsonl", "corpus/documents.jsonl"},
		{"data/pages.jsonl", "corpus/pages.jsonl"},
		{"data/chunks.jsonl", "corpus/chunks.jsonl"},
		{"eval/questions.jsonl", "sections/rag-dev.jsonl", "sections/rag-test.jsonl"},
		{"eval/anchored_judgments.jsonl", "corpus/anchored_judgments.jsonl"},
	} {
		if err := take(m[0], m[1:]...); err != nil {
			return nil, err
		}
	}
	for name := range files {
		if strings.HasPrefix(name, "runs/") {
			if err := take(name, name); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// WriteFiles writes files (path → bytes, slash-separated paths as Folder
// returns them) under dir, creating the folders on the way.
func WriteFiles(dir string, files map[string][]byte) error {
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
