package dataset

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// Seed 004 says only what manifest.json and meta.json hold ("包格式版本和类型",
// "名称、描述、版本哈希"), not how the keys are spelled, so hand-written
// bundles spell them in several ways. The typed model.Manifest / model.Meta
// use eval752's names; these aliases are read into them before decoding, so
// that {"version": 1, "type": "dataset"} and {"title": …, "hash": …} load as
// well as eval752's own spelling. The first alias present with a non-null
// value wins; Raw keeps what the file says.
var (
	// MetaNameKeys are read as meta.json's name.
	MetaNameKeys = []string{"name", "title"}
	// MetaHashKeys are read as meta.json's version hash.
	MetaHashKeys = []string{"version_hash", "hash", "content_hash", "content_sha256", "sha256",
		"checksum", "digest"}
	// ManifestKindKeys are read as manifest.json's kind.
	ManifestKindKeys = []string{"kind", "type"}
	// ManifestVersionKeys are read as manifest.json's format_version.
	ManifestVersionKeys = []string{"format_version", "version", "schema_version"}
)

// AliasKey returns the key of raw (a decoded JSON object) that spells the
// first of keys, with its non-null value; "" when none. A key spelled
// exactly wins; otherwise case, separators and a leading "dataset",
// "bundle" or "package" are ignored, so "versionHash", "dataset_version_hash"
// and "Bundle-Type" read as version_hash and type.
func AliasKey(raw any, keys []string) (string, any) {
	m, ok := raw.(map[string]any)
	if !ok {
		return "", nil
	}
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return k, v
		}
	}
	names := slices.Sorted(maps.Keys(m))
	for _, k := range keys {
		nk := normKey(k)
		for _, mk := range names {
			if v := m[mk]; v != nil && normKey(mk) == nk {
				return mk, v
			}
		}
	}
	return "", nil
}

// normKey folds a key for AliasKey: lower case, letters and digits only,
// without a leading dataset / bundle / package qualifier.
func normKey(k string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(k) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	s := b.String()
	for _, p := range []string{"dataset", "bundle", "package"} {
		if rest, ok := strings.CutPrefix(s, p); ok && rest != "" {
			return rest
		}
	}
	return s
}

// MetaHashKey finds meta.json's version hash: a MetaHashKeys spelling, or
// else a "version" that holds a "sha256:…" value (people write the hash
// there too). key is "" when there is none.
func MetaHashKey(raw any) (key string, v any) {
	if k, v := AliasKey(raw, MetaHashKeys); k != "" {
		return k, v
	}
	if k, v := AliasKey(raw, []string{"version"}); k != "" {
		if s, ok := v.(string); ok && strings.HasPrefix(strings.ToLower(strings.TrimSpace(s)), "sha256:") {
			return k, v
		}
	}
	return "", nil
}

// scalarText renders a JSON scalar as text (numbers as written); ok is false
// for objects and arrays.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case float64, int, int64, bool:
		b, _ := json.Marshal(x)
		return string(b), true
	}
	return "", false
}

// normalizeMeta returns the JSON of meta.json with its aliases read into
// eval752's keys (name, description, version_hash, version, license as
// strings; null values dropped), ready for the typed decode.
func normalizeMeta(raw map[string]any) []byte {
	out := map[string]any{}
	put := func(dst string, keys []string) {
		if _, v := AliasKey(raw, keys); v != nil {
			if s, ok := scalarText(v); ok {
				out[dst] = s
			}
		}
	}
	put("name", MetaNameKeys)
	put("description", []string{"description", "desc"})
	hashKey, hv := MetaHashKey(raw)
	if s, ok := scalarText(hv); ok {
		out["version_hash"] = s
	}
	if hashKey != "version" {
		put("version", []string{"version"})
	}
	put("license", []string{"license"})
	b, _ := json.Marshal(out)
	return b
}

// normalizeManifest returns the JSON of manifest.json with the kind and
// format version read from their aliases; files is kept as written.
func normalizeManifest(raw map[string]any) []byte {
	out := map[string]any{}
	if _, v := AliasKey(raw, ManifestKindKeys); v != nil {
		if s, ok := scalarText(v); ok {
			out["kind"] = s
		}
	}
	if _, v := AliasKey(raw, ManifestVersionKeys); v != nil {
		if _, ok := scalarText(v); ok {
			out["format_version"] = v
		}
	}
	if f, ok := raw["files"]; ok && f != nil {
		out["files"] = manifestFiles(f)
	}
	b, _ := json.Marshal(out)
	return b
}

// manifestFiles reads manifest.json's file list in the shapes people write
// it: eval752's [{"path", "sha256", …}], a list of paths ["sections/a.jsonl"],
// or an object {"sections/a.jsonl": "<sha256>"} (in name order).
func manifestFiles(f any) any {
	switch x := f.(type) {
	case []any:
		out := make([]any, 0, len(x))
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, map[string]any{"path": s})
			} else {
				out = append(out, e)
			}
		}
		return out
	case map[string]any:
		names := slices.Sorted(maps.Keys(x))
		out := make([]any, 0, len(x))
		for _, k := range names {
			e := map[string]any{"path": k}
			switch v := x[k].(type) {
			case string:
				e["sha256"] = v
			case map[string]any:
				for kk, vv := range v {
					e[kk] = vv
				}
				e["path"] = k
			}
			out = append(out, e)
		}
		return out
	}
	return f
}

// NormalizeKind maps a manifest kind as people write it to "dataset" or
// "results" ("" when it is neither): case, separators and a product prefix
// are ignored ("Dataset", "eval752-dataset", "result", "eval_results").
func NormalizeKind(kind string) string {
	k := strings.ToLower(strings.TrimSpace(kind))
	switch {
	case k == "":
		return ""
	case strings.Contains(k, "result") || strings.Contains(k, "run"):
		return "results"
	case strings.Contains(k, "dataset") || strings.Contains(k, "data") || strings.Contains(k, "bench") ||
		strings.Contains(k, "question") || strings.Contains(k, "item") || strings.Contains(k, "set"):
		return "dataset"
	}
	return ""
}
