package provider_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/provider"
)

// TestAccProvider_badConfig: bad provider settings are refused at plan time
// with the setting named.
func TestAccProvider_badConfig(t *testing.T) {
	resourceBlock := `
resource "pipeline_transformation_config" "test" {
  plugin = 1
}
`
	cases := []struct {
		settings string
		want     string
	}{
		{`api_key = ""`, `(?s)api_key.*must not be empty or blank`},
		{`api_key = "   "`, `(?s)api_key.*must not be empty or blank`},
		{`host = "us.posthog.com"`, `(?s)host.*must be an absolute http\(s\)\s+URL`},
		{`host = "ftp://us.posthog.com"`, `(?s)host.*must be an absolute http\(s\)\s+URL`},
		{`host = "http://posthog.example.com"`, `(?s)host.*allow_insecure_http`},
		{`project_id = "my-project"`, `(?s)project_id.*must be a positive integer or "@current"`},
		{`request_timeout = "soon"`, `(?s)request_timeout.*must be a positive duration`},
		{`request_timeout = "-5s"`, `(?s)request_timeout.*must be a positive duration`},
		{`max_retries = -1`, `(?s)max_retries.*must be between 0 and 20`},
		{`requests_per_minute = -5`, `(?s)requests_per_minute.*must be at least 0`},
	}
	steps := make([]resource.TestStep, len(cases))
	for i, c := range cases {
		steps[i] = resource.TestStep{
			Config:      "provider \"pipeline\" {\n  " + c.settings + "\n}\n" + resourceBlock,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(c.want),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheckWithoutCreates(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// configure runs ConfigureProvider with the given settings (others null).
func configure(t *testing.T, settings map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	t.Helper()
	ctx := context.Background()
	srv, err := providerserver.NewProtocol6WithError(provider.New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{
		TerraformVersion: "1.11.4",
		Config:           acctest.DynamicValue(t, schemas.Provider.ValueType(), settings),
	})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Diagnostics
}

// TestProvider_configureFromEnvironment: settings left out come from the
// environment; what is wrong there is reported on the setting it stands for.
// Not parallel: it sets environment variables.
func TestProvider_configureFromEnvironment(t *testing.T) {
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	tests := map[string]struct {
		env      map[string]string
		settings map[string]tftypes.Value
		wantAttr string // "" for success
		want     string
	}{
		"all from the environment": {
			env: map[string]string{"POSTHOG_HOST": "https://eu.posthog.com", "POSTHOG_API_KEY": "phx_x", "POSTHOG_PROJECT_ID": "@current"},
		},
		"no key anywhere": {
			env:      map[string]string{"POSTHOG_API_KEY": ""},
			wantAttr: "api_key", want: "POSTHOG_API_KEY",
		},
		"blank key in the environment": {
			env:      map[string]string{"POSTHOG_API_KEY": "  "},
			wantAttr: "api_key", want: "must not be empty or blank",
		},
		"bad host in the environment": {
			env:      map[string]string{"POSTHOG_HOST": "posthog", "POSTHOG_API_KEY": "phx_x"},
			wantAttr: "host", want: "POSTHOG_HOST",
		},
		"plain http host in the environment": {
			env:      map[string]string{"POSTHOG_HOST": "http://posthog.example.com", "POSTHOG_API_KEY": "phx_x"},
			wantAttr: "host", want: "allow_insecure_http",
		},
		"bad project in the environment": {
			env:      map[string]string{"POSTHOG_API_KEY": "phx_x", "POSTHOG_PROJECT_ID": "first"},
			wantAttr: "project_id", want: "POSTHOG_PROJECT_ID",
		},
		"configuration wins over the environment": {
			env:      map[string]string{"POSTHOG_HOST": "posthog", "POSTHOG_API_KEY": ""},
			settings: map[string]tftypes.Value{"host": str("https://us.posthog.com"), "api_key": str("phx_x")},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			for _, k := range []string{"POSTHOG_HOST", "POSTHOG_API_KEY", "POSTHOG_PROJECT_ID"} {
				t.Setenv(k, tt.env[k])
			}
			diags := configure(t, tt.settings)
			if tt.wantAttr == "" {
				acctest.FailOnDiagnostics(t, "ConfigureProvider", diags)
				return
			}
			if len(diags) != 1 {
				t.Fatalf("diagnostics %v, want one", diags)
			}
			d := diags[0]
			if d.Attribute == nil || d.Attribute.String() != tftypes.NewAttributePath().WithAttributeName(tt.wantAttr).String() ||
				!strings.Contains(d.Detail, tt.want) {
				t.Errorf("diagnostic on %v: %s: %s; want one on %s mentioning %q", d.Attribute, d.Summary, d.Detail, tt.wantAttr, tt.want)
			}
		})
	}
}

// TestProvider_userAgent: every request says which Terraform and provider
// version sent it, and carries the key only in the Authorization header.
func TestProvider_userAgent(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var agents []string
	host, _ := acctest.IsolatedAPI(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			agents = append(agents, r.UserAgent())
			mu.Unlock()
			h.ServeHTTP(w, r)
		})
	})
	srv := acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1")
	created := srv.Apply(t, "pipeline_transformation_config", nil, nil, map[string]tftypes.Value{
		"plugin": tftypes.NewValue(tftypes.Number, 1),
	})
	acctest.FailOnDiagnostics(t, "create", created.Diagnostics)

	mu.Lock()
	defer mu.Unlock()
	if len(agents) == 0 {
		t.Fatal("no request")
	}
	for _, ua := range agents {
		if ua != "Terraform/1.12.0 terraform-provider-pipeline/acctest" {
			t.Errorf("User-Agent %q", ua)
		}
	}
}
