package acctest

// SecretPlugin is a plugin of the local API's seeded catalog with one secret
// and one plain setting.
type SecretPlugin struct {
	Plugin           int64
	SecretKey, Plain string
}

// SecretPlugins are, per kind name, the local API's plugins with a secret
// setting: GeoIP (secret api_key, plain locale) and S3 Import (secret
// aws_secret_access_key, plain bucket).
var SecretPlugins = map[string]SecretPlugin{
	"transformation": {Plugin: 1, SecretKey: "api_key", Plain: "locale"},
	"import_app":     {Plugin: 3, SecretKey: "aws_secret_access_key", Plain: "bucket"}, //nolint:gosec // a key name, not a credential
}
