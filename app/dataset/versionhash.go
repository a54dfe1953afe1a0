package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
)

// VersionHashPrefixes are the bundle folders whose files make up a dataset's
// version: its items, their assets, its checkers and its corpus (corpus/,
// or seed 003's data/ and eval/). Results,
// run configs, manifest.json and meta.json are not part of the dataset's
// version (adding a run must not change it).
var VersionHashPrefixes = []string{"sections/", "assets/", "checkers/", "corpus/", "data/", "eval/"}

// VersionHash computes the dataset version hash that meta.json's
// version_hash must hold, from entry name → hex sha256 of its bytes:
//
//	lines   = for each entry under sections/, assets/, checkers/, corpus/, data/, eval/,
//	          in byte order of name: "<sha256 hex>  <name>\n"   (sha256sum's format)
//	version = "sha256:" + hex(sha256(lines))
//
// so `cd bundle && find sections assets checkers corpus -type f | LC_ALL=C sort |
// xargs sha256sum | sha256sum` reproduces it outside eval752 (add data eval
// when the bundle has seed 003's folders).
func VersionHash(entrySHA256 map[string]string) string {
	names := make([]string, 0, len(entrySHA256))
	for n := range entrySHA256 {
		if InVersion(n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s  %s\n", entrySHA256[n], n)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// InVersion reports whether a bundle entry counts toward the version hash.
func InVersion(name string) bool {
	if strings.HasSuffix(name, "/") {
		return false
	}
	for _, p := range VersionHashPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// MatchVersionHash reports whether a declared version_hash agrees with the
// computed one. The declared value may carry the "sha256:" prefix or not, and
// may be abbreviated to a prefix of at least 8 hex digits (like a git hash).
// ok is false on mismatch; verifiable is false when declared is not hex at
// all (a free-form version label that cannot be checked).
func MatchVersionHash(declared, computed string) (ok, verifiable bool) {
	d := strings.ToLower(strings.TrimSpace(declared))
	d = strings.TrimPrefix(d, "sha256:")
	c := strings.TrimPrefix(computed, "sha256:")
	if len(d) < 8 || len(d) > 64 {
		return false, false
	}
	for _, r := range d {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false, false
		}
	}
	return strings.HasPrefix(c, d), true
}
