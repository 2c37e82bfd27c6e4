// Package acctest is the acceptance-test harness, a library that the tests
// of every package share (it has no tests of its own): provider factories,
// the instance tests run against, the table of kinds every test runs over
// (KindCase), checks of the API's records, a protocol-level driver for
// features newer than this machine's Terraform (protocol*.go), and a driver
// of the terraform binary with the provider built into a filesystem mirror
// (terraform.go). The tests that drive that binary themselves live in
// package acceptance.
//
// Tests run against a live instance when POSTHOG_HOST, POSTHOG_API_KEY and
// POSTHOG_PROJECT_ID are all set. Otherwise the local API is started
// in-process, once per test binary, on a loopback port, and the provider is
// pointed at it. A live instance of a later service generation creates no
// configs: the tests that create skip there, and those of existing configs
// (Existing, named by PIPELINE_TEST_<KIND>_CONFIG_ID) run (generation.go,
// existing.go).
package acctest

import (
	"fmt"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/provider"
)

// Environment variables that select a live instance.
const (
	EnvHost      = "POSTHOG_HOST"
	EnvAPIKey    = "POSTHOG_API_KEY" //nolint:gosec // the name of a variable, not a credential
	EnvProjectID = "POSTHOG_PROJECT_ID"
)

// Keys of the local API, for tests that choose one. Against a live instance
// every key is the one in POSTHOG_API_KEY.
const (
	KeyFull  = localapi.KeyFull
	KeyWrite = localapi.KeyWrite
	KeyRead  = localapi.KeyRead
)

// localProject is the seeded project tests use on the local API; KeyWrite
// and KeyRead may only use it.
const localProject = "1"

// ProtoV6ProviderFactories runs the provider in the test process, so that
// Terraform's calls reach the same code the tests' breakpoints and the
// in-process local API live in.
var ProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"pipeline": providerserver.NewProtocol6WithError(provider.New("acctest")()),
}

// instance is what the tests run against.
type instance struct {
	host, key, project string
	// local is the in-process local API; nil against a live instance.
	local *localapi.Server
}

var (
	startOnce sync.Once
	current   *instance
	startErr  error
)

// live is decided once, before the harness points these same variables at
// the local API.
var live = os.Getenv(EnvHost) != "" && os.Getenv(EnvAPIKey) != "" && os.Getenv(EnvProjectID) != ""

// IsLive reports whether the tests run against a live instance.
func IsLive() bool { return live }

// get returns the instance, starting the local API on first use.
func get() (*instance, error) {
	startOnce.Do(func() { current, startErr = start() })
	return current, startErr
}

func start() (*instance, error) {
	if IsLive() {
		return &instance{host: os.Getenv(EnvHost), key: os.Getenv(EnvAPIKey), project: os.Getenv(EnvProjectID)}, nil
	}
	srv, err := localapi.New(localapi.Options{})
	if err != nil {
		return nil, fmt.Errorf("starting the local API: %w", err)
	}
	// Stays up for the life of the test binary: every test shares it.
	ts := httptest.NewServer(srv)
	inst := &instance{host: ts.URL, key: KeyWrite, project: localProject, local: srv}
	// Configurations without a provider block, and the import steps, find
	// the local API through the provider's environment variables. Set once,
	// before any test runs Terraform.
	for k, v := range map[string]string{EnvHost: inst.host, EnvAPIKey: inst.key, EnvProjectID: inst.project} {
		if err := os.Setenv(k, v); err != nil {
			return nil, err
		}
	}
	return inst, nil
}

// mustGet returns the instance or fails t.
func mustGet(t testing.TB) *instance {
	t.Helper()
	inst, err := get()
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// PreCheck makes sure the instance is up, and skips the test when the
// instance creates no configs (generation 2 and later: SkipUnlessCreates);
// use it as the PreCheck of every TestCase that creates a config.
func PreCheck(t *testing.T) {
	t.Helper()
	mustGet(t)
	SkipUnlessCreates(t)
}

// PreCheckWithoutCreates makes sure the instance is up, for a TestCase that
// creates no config (plan-time refusals, existing configs): it runs against
// every service generation.
func PreCheckWithoutCreates(t *testing.T) {
	t.Helper()
	mustGet(t)
}

// AccEnabled reports whether acceptance tests run at all (TF_ACC is set;
// resource.Test skips them otherwise), so that building a TestCase starts
// nothing needlessly.
func AccEnabled() bool { return os.Getenv("TF_ACC") != "" }

// SkipUnlessAcc skips an acceptance test without TF_ACC before it starts
// anything of its own, such as an IsolatedAPI (resource.Test would skip it
// only after that).
func SkipUnlessAcc(t testing.TB) {
	t.Helper()
	if !AccEnabled() {
		t.Skip("acceptance tests run with TF_ACC=1")
	}
}

// ProviderConfig returns a provider block that uses key on the local API
// (its host, and project 1). Against a live instance it is an empty block:
// the environment variables configure the provider.
func ProviderConfig(key string) string {
	if !AccEnabled() || IsLive() {
		return "provider \"pipeline\" {}\n"
	}
	inst, err := get()
	if err != nil {
		// PreCheck reports the error.
		return "provider \"pipeline\" {}\n"
	}
	return ProviderBlock(inst.host, key, inst.project)
}

// ProviderBlock returns a provider block for host, key and project, e.g. for
// an IsolatedAPI.
func ProviderBlock(host, key, project string) string {
	return fmt.Sprintf("provider \"pipeline\" {\n  host       = %q\n  api_key    = %q\n  project_id = %q\n}\n",
		host, key, project)
}

// ProjectID is the project the tests work in.
func ProjectID(t testing.TB) string { return mustGet(t).project }

// API returns a client with full access to the instance, for checking and
// changing records behind Terraform's back.
func API(t testing.TB) *client.Client {
	t.Helper()
	inst := mustGet(t)
	key := inst.key
	if inst.local != nil {
		key = KeyFull
	}
	c, err := client.New(client.Config{Host: inst.host, APIKey: key, UserAgent: "acctest", MaxRetries: 3})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// pluginEnv lets a live run name plugin ids of its own, e.g.
// PIPELINE_ACC_TRANSFORMATION_PLUGINS="12,15".
func pluginEnv(kind string) string {
	return "PIPELINE_ACC_" + strings.ToUpper(kind) + "_PLUGINS"
}

// localPlugins are the local API's seeded plugins of each kind.
var localPlugins = map[string][]int64{
	"transformation": {1, 2}, // GeoIP, Property Filter
	"import_app":     {3, 4}, // S3 Import, BigQuery Import
}

// Plugins returns two plugin ids of the kind named kind ("transformation" or
// "import_app") for tests to create configs of.
func Plugins(t testing.TB, kind string) []int64 {
	t.Helper()
	raw := os.Getenv(pluginEnv(kind))
	if raw == "" {
		if IsLive() {
			t.Skipf("set %s to two plugin ids of the live instance", pluginEnv(kind))
		}
		return localPlugins[kind]
	}
	var ids []int64
	for _, s := range strings.Split(raw, ",") {
		id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			t.Fatalf("%s: %v", pluginEnv(kind), err)
		}
		ids = append(ids, id)
	}
	if len(ids) < 2 {
		t.Fatalf("%s needs two plugin ids", pluginEnv(kind))
	}
	return ids
}
