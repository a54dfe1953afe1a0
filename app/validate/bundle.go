package validate

import (
	"encoding/json"
	"fmt"
	"strings"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/jsonl"
)

// Gate 1, bundle consistency: what manifest.json and meta.json say about the
// bundle agrees with what is in it (seed 004 .eval752.zip 包结构). The readers
// report a missing manifest.json / meta.json; these rules check their content.

var (
	ruleManifestIncomplete = register(finding.Rule{
		Code:        "bundle.manifest-incomplete",
		Severity:    finding.Info,
		Description: "manifest.json states the bundle's kind and format_version.",
		Source:      "seed 004 .eval752.zip 包结构 (manifest.json: 包格式版本和类型)",
		Hint:        "Write {\"format_version\": 1, \"kind\": \"dataset\"} (or \"results\").",
		Family:      "bundle",
	})
	ruleManifestKind = register(finding.Rule{
		Code:        "bundle.manifest-kind",
		Severity:    finding.Warning,
		Description: "manifest.json's kind (alias type, bundle_type) reads as \"dataset\" or \"results\" (case, separators and a prefix are ignored: \"Dataset\", \"eval752-dataset\", \"result\"); another kind is read as a dataset.",
		Source:      "seed 004 .eval752.zip 包结构 (自包含的数据集（或结果）包)",
		Hint:        "Use \"dataset\" for a set of questions, \"results\" for a bundle that also carries results.jsonl.",
		Family:      "bundle",
	})
	ruleManifestVersion = register(finding.Rule{
		Code:        "bundle.manifest-version",
		Severity:    finding.Warning,
		Description: "manifest.json's format_version (alias version, schema_version) is a version eval752 knows: 1 or 1.x (another version is read as 1 and may be misread).",
		Source:      "seed 004 .eval752.zip 包结构 (manifest.json: 包格式版本)",
		Hint:        "Set format_version to 1; a newer bundle needs a newer eval752.",
		Family:      "bundle",
	})
	ruleManifestFileMissing = register(finding.Rule{
		Code:        "bundle.manifest-file-missing",
		Severity:    finding.Error,
		Description: "Every file listed in manifest.json's files exists in the archive.",
		Source:      "seed 004 .eval752.zip 包结构",
		Hint:        "Add the file to the archive or remove it from manifest.json's files.",
		Family:      "bundle",
	})
	ruleManifestSHA = register(finding.Rule{
		Code:        "bundle.manifest-sha256",
		Severity:    finding.Error,
		Description: "The sha256 manifest.json lists for a file equals the sha256 of the file in the archive.",
		Source:      "seed 004 .eval752.zip 包结构; seed 000 §5 (报告必须引用 sha256)",
		Hint:        "The file changed after the manifest was written: rebuild the manifest (or restore the file).",
		Family:      "bundle",
	})
	ruleManifestUnlisted = register(finding.Rule{
		Code:        "bundle.section-unlisted",
		Severity:    finding.Error,
		Description: "When manifest.json lists files, every sections/*.jsonl of the archive is listed.",
		Source:      "seed 004 .eval752.zip 包结构 (sections/ 各分区的题目)",
		Hint:        "Add the section to manifest.json's files, or drop the files list to let eval752 read every section.",
		Family:      "bundle",
	})
	ruleVersionHash = register(finding.Rule{
		Code:        "bundle.version-hash",
		Severity:    finding.Error,
		Description: "meta.json's version_hash (alias hash, versionHash, …), when it is a sha256 hex value or a prefix of ≥ 8 hex digits, equals the hash recomputed from the bundle's sections/, assets/, checkers/ and corpus/ files (recipe in docs/formats.md).",
		Source:      "seed 004 .eval752.zip 包结构 (meta.json: 版本哈希)",
		Hint:        "The content changed after version_hash was written: update it to the expected value (or restore the content).",
		Family:      "bundle",
	})
	ruleVersionHashMissing = register(finding.Rule{
		Code:        "bundle.version-hash-missing",
		Severity:    finding.Warning,
		Description: "meta.json carries a version_hash so a score can be tied to the exact content it was computed on.",
		Source:      "seed 004 .eval752.zip 包结构 (meta.json: 版本哈希); seed 000 §5",
		Hint:        "Add \"version_hash\" with the value in the message.",
		Family:      "bundle",
	})
	ruleMetaName = register(finding.Rule{
		Code:        "bundle.meta-name",
		Severity:    finding.Warning,
		Description: "meta.json names the dataset (name, alias title).",
		Source:      "seed 004 .eval752.zip 包结构 (meta.json: 名称、描述、版本哈希)",
		Hint:        "Add \"name\": the reports and the page show it.",
		Family:      "bundle",
	})
	ruleVersionHashUnverifiable = register(finding.Rule{
		Code:        "bundle.version-hash-unverifiable",
		Severity:    finding.Info,
		Description: "A version_hash that is not a sha256 hex value (a label, another algorithm, fewer than 8 hex digits), or of a meta.json given outside its archive, cannot be checked against the content.",
		Source:      "seed 004 .eval752.zip 包结构 (meta.json: 版本哈希)",
		Hint:        "Use \"sha256:<hex>\" as computed by eval752 so the hash can be verified.",
		Family:      "bundle",
	})
)

func (c *checker) checkBundles() {
	for _, b := range c.ds.Bundles {
		c.checkManifest(b)
		c.checkMeta(b)
	}
}

func (c *checker) checkManifest(b *dataset.Bundle) {
	m := b.Manifest
	if m == nil || !m.Typed {
		return
	}
	kindKey, _ := dataset.AliasKey(m.Raw, dataset.ManifestKindKeys)
	verKey, _ := dataset.AliasKey(m.Raw, dataset.ManifestVersionKeys)
	kind, kindPtr := m.V.Kind, "/"+kindKey
	if kind == "" {
		kind = m.V.Type
	}
	ver, verPtr := m.V.FormatVersion, "/"+verKey
	if ver == nil {
		ver = m.V.Version
	}
	var missing []string
	if kind == "" {
		missing = append(missing, "kind")
	} else if dataset.NormalizeKind(kind) == "" {
		c.add(ruleManifestKind.At(c.ds.Path(m.Loc), int(m.Line), kindPtr, "manifest kind %q reads as neither \"dataset\" nor \"results\"; the bundle is read as a dataset", kind))
	}
	if ver == nil {
		missing = append(missing, "format_version")
	} else if s, ok := knownFormatVersion(ver); !ok {
		c.add(ruleManifestVersion.At(c.ds.Path(m.Loc), int(m.Line), verPtr, "manifest format_version %s is not one eval752 knows (1 or 1.x); the bundle is read as version 1", s))
	}
	if len(missing) > 0 {
		c.add(ruleManifestIncomplete.At(c.ds.Path(m.Loc), int(m.Line), "", "manifest.json does not state %s", strings.Join(missing, " or ")))
	}
	if len(m.V.Files) == 0 || len(b.Entries) == 0 {
		return // no list, or a manifest.json given outside an archive: nothing to compare
	}
	listed := map[string]bool{}
	// files written as an object {"sections/a.jsonl": "<sha256>"} are
	// pointed at by name, a list by index
	rawFiles, _ := rawField(m.Raw, "files")
	_, byName := rawFiles.(map[string]any)
	filePtr := func(i int, f string, key string) string {
		if byName {
			return jsonl.Pointer("files", f)
		}
		return jsonl.Pointer("files", i, key)
	}
	for i, f := range m.V.Files {
		name := strings.TrimPrefix(f.Path, "./")
		listed[name] = true
		got, ok := b.SHA256[name]
		if !ok {
			c.add(ruleManifestFileMissing.At(c.ds.Path(m.Loc), int(m.Line), filePtr(i, f.Path, "path"), "manifest lists %q, which is not in the archive", f.Path))
			continue
		}
		want := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(f.SHA256), "sha256:"))
		if want != "" && want != got {
			c.add(ruleManifestSHA.At(c.ds.Path(m.Loc), int(m.Line), filePtr(i, f.Path, "sha256"),
				"manifest sha256 of %s is %s, the archive's file hashes to %s", name, want, got))
		}
	}
	for _, s := range b.Sections {
		_, name := splitPath(s)
		if !listed[name] {
			c.add(ruleManifestUnlisted.At(c.ds.Path(m.Loc), int(m.Line), "/files", "section %s is in the archive but not listed in manifest files", name))
		}
	}
}

// knownFormatVersion accepts 1, "1", "1.0", "1.2": bundles of format major
// version 1. It returns the value as text for the message.
func knownFormatVersion(v any) (string, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case string:
		s = x
	case float64:
		s = fmtNum(x)
	case int:
		s = fmt.Sprint(x)
	default:
		b, _ := json.Marshal(v)
		return string(b), false
	}
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	ok := t == "1" || strings.HasPrefix(t, "1.") && len(t) > 2
	if _, isStr := v.(string); isStr {
		s = quote(s)
	}
	return s, ok
}

func (c *checker) checkMeta(b *dataset.Bundle) {
	m := b.Meta
	if m == nil || !m.Typed {
		return
	}
	declared := strings.TrimSpace(m.V.VersionHash)
	hashKey, _ := dataset.MetaHashKey(m.Raw)
	if hashKey == "" {
		hashKey = "version_hash"
	}
	hashPtr := "/" + hashKey
	if strings.TrimSpace(m.V.Name) == "" {
		c.add(ruleMetaName.At(c.ds.Path(m.Loc), int(m.Line), "", "meta.json has no name"))
	}
	if len(b.Entries) == 0 {
		// meta.json given on its own, not inside an archive: the content
		// it describes was not loaded.
		if declared != "" {
			c.add(ruleVersionHashUnverifiable.At(c.ds.Path(m.Loc), int(m.Line), hashPtr,
				"%s %q cannot be checked: meta.json was given outside its .eval752.zip", hashKey, declared).
				WithHint("Validate the packed bundle to check its version hash."))
		}
		return
	}
	want := dataset.VersionHash(b.SHA256)
	var unread []string
	for _, e := range b.Unread {
		if dataset.InVersion(e) {
			unread = append(unread, e)
		}
	}
	if declared == "" && len(unread) > 0 {
		c.add(ruleVersionHashMissing.At(c.ds.Path(m.Loc), int(m.Line), "", "meta.json has no version_hash, and none can be computed: %s of the version could not be read (first: %s)", plural(len(unread), "entry", "entries"), unread[0]).
			WithHint("Fix or remove the refused entries (see the zip findings), then validate again to get the value."))
		return
	}
	if declared == "" {
		c.add(ruleVersionHashMissing.At(c.ds.Path(m.Loc), int(m.Line), "", "meta.json has no version_hash; the content hashes to %s", want).
			WithHint("Add \"version_hash\": \"" + want + "\" to meta.json (" + versionHashRecipe + ")."))
		return
	}
	if len(unread) > 0 {
		// a refused entry's bytes were never read: any expected value
		// would leave it out, and a hint to write it would be wrong
		c.add(ruleVersionHashUnverifiable.At(c.ds.Path(m.Loc), int(m.Line), hashPtr,
			"%s cannot be checked: %s of the version could not be read (first: %s); see the zip findings", hashKey, plural(len(unread), "entry", "entries"), unread[0]).
			WithHint("Fix or remove the refused entries, then validate again to check the version hash."))
		return
	}
	ok, verifiable := dataset.MatchVersionHash(declared, want)
	switch {
	case !verifiable:
		c.add(ruleVersionHashUnverifiable.At(c.ds.Path(m.Loc), int(m.Line), hashPtr,
			"%s %q is not a sha256 hex value (or a prefix of ≥ 8 hex digits), so it is kept as a label and not checked; the content hashes to %s", hashKey, declared, want).
			WithHint("To have it verified, write \"version_hash\": \"" + want + "\" (" + versionHashRecipe + ")."))
	case !ok:
		c.add(ruleVersionHash.At(c.ds.Path(m.Loc), int(m.Line), hashPtr,
			"%s %s does not match the bundle content: expected %s (%s)", hashKey, declared, want, versionHashRecipe).
			WithHint("Set \"" + hashKey + "\": \"" + want + "\" if the content change is intended; otherwise restore the content."))
	}
}

// versionHashRecipe says how the expected version hash is computed, for
// messages: a reviewer must be able to reproduce it outside eval752.
const versionHashRecipe = "sha256 of the sha256sum lines \"<hex>  <name>\" of every file under sections/ assets/ checkers/ corpus/ (and seed 003's data/ eval/) in byte order of name: " +
	"find sections assets checkers corpus -type f | LC_ALL=C sort | xargs sha256sum | sha256sum"
