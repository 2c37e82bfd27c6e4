package provider

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/createonce"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// Environment variables and defaults of the settings; the variables are
// the official PostHog provider's.
const (
	envHost      = "POSTHOG_HOST"
	envAPIKey    = "POSTHOG_API_KEY" //nolint:gosec // the name of a variable, not a credential
	envProjectID = "POSTHOG_PROJECT_ID"

	defaultHost              = "https://us.posthog.com"
	maxMaxRetries            = 20
	defaultRequestTimeout    = 30 * time.Second
	defaultRequestsPerMinute = 400 // under the live service's 480 per minute and key
)

var hostPath = path.Root("host")

type providerModel struct {
	Host              types.String `tfsdk:"host"`
	APIKey            types.String `tfsdk:"api_key"`
	ProjectID         types.String `tfsdk:"project_id"`
	MaxRetries        types.Int64  `tfsdk:"max_retries"`
	RequestTimeout    types.String `tfsdk:"request_timeout"`
	RequestsPerMinute types.Int64  `tfsdk:"requests_per_minute"`
	RetryWaitMax      types.String `tfsdk:"retry_wait_max"`
	AllowInsecureHTTP types.Bool   `tfsdk:"allow_insecure_http"`
}

// orDefault returns the configured setting v, or def when it is left out.
func orDefault[T any](v *T, def T) T {
	if v == nil {
		return def
	}
	return *v
}

// Configure implements provider.Provider: settings resolved against their
// environment variables and defaults, and a client for every construct.
func (p *pipelineProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !req.Config.Raw.IsFullyKnown() {
		// Terraform configures the provider again once they are known.
		tflog.Debug(ctx, "provider configuration has unknown values; not configuring the client yet")
		return
	}

	host := strings.TrimRight(orDefault(cfg.Host.ValueStringPointer(), cmp.Or(os.Getenv(envHost), defaultHost)), "/")
	if err := client.CheckHost(host, cfg.AllowInsecureHTTP.ValueBool()); err != nil {
		resp.Diagnostics.AddAttributeError(hostPath, "Invalid host",
			fmt.Sprintf("%s (from the host setting or %s)", err, envHost))
	}

	apiKey := orDefault(cfg.APIKey.ValueStringPointer(), os.Getenv(envAPIKey))
	if strings.TrimSpace(apiKey) == "" {
		resp.Diagnostics.AddAttributeError(path.Root("api_key"), "Missing API key",
			"The provider needs a personal API key: set api_key in the provider block or the "+
				envAPIKey+" environment variable. It must not be empty or blank.")
	}

	projectID := strings.TrimSpace(orDefault(cfg.ProjectID.ValueStringPointer(), os.Getenv(envProjectID)))
	if projectID != "" && !framework.ValidProjectID(projectID) {
		resp.Diagnostics.AddAttributeError(framework.ProjectIDPath, "Invalid project_id",
			fmt.Sprintf(`project_id (or %s) must be a positive integer or "@current", got %q.`, envProjectID, projectID))
	}

	requestTimeout := durationSetting(cfg.RequestTimeout, defaultRequestTimeout)
	waitMax := durationSetting(cfg.RetryWaitMax, client.DefaultRetryWaitMax)
	maxRetries := orDefault(cfg.MaxRetries.ValueInt64Pointer(), client.DefaultMaxRetries)
	rpm := orDefault(cfg.RequestsPerMinute.ValueInt64Pointer(), defaultRequestsPerMinute)
	if resp.Diagnostics.HasError() {
		return
	}

	c, err := client.New(client.Config{
		Host:              host,
		APIKey:            apiKey,
		UserAgent:         fmt.Sprintf("Terraform/%s terraform-provider-pipeline/%s", req.TerraformVersion, p.version),
		MaxRetries:        int(maxRetries),
		RetryWaitMin:      min(client.DefaultRetryWaitMin, waitMax), // never above retry_wait_max
		RetryWaitMax:      waitMax,
		RequestTimeout:    requestTimeout,
		RequestsPerMinute: int(rpm),
		AllowInsecureHTTP: cfg.AllowInsecureHTTP.ValueBool(),
	})
	if err != nil {
		resp.Diagnostics.AddError("Could not create the API client", err.Error())
		return
	}

	// The key is deliberately not among the logged fields.
	tflog.Info(ctx, "configured the pipeline provider", map[string]any{
		"host": host, "project_id": projectID, "max_retries": maxRetries,
		"request_timeout": requestTimeout.String(), "requests_per_minute": rpm, "retry_wait_max": waitMax.String(),
	})

	journalDir := orDefault(p.journalDir, createonce.DefaultJournalDir())
	data := &framework.ProviderData{Client: c, ProjectID: projectID, JournalDir: journalDir}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ActionData = data
	resp.ListResourceData = data
}

// durationSetting returns the configured duration (durationValidator checked it), else def.
func durationSetting(v types.String, def time.Duration) time.Duration {
	if v.IsNull() {
		return def
	}
	d, _ := time.ParseDuration(v.ValueString())
	return d
}

// notBlankValidator refuses an empty or whitespace-only string; the stock
// ones would change the error, and a regex one would echo the api_key.
var notBlankValidator = framework.StringCheck("must not be empty or blank", func(p path.Path, s string) (string, string) {
	if strings.TrimSpace(s) != "" {
		return "", ""
	}
	return "Invalid " + p.String(), p.String() + " must not be empty or blank."
})

// durationValidator refuses a string that is not a positive Go duration.
var durationValidator = framework.StringCheck(`must be a positive duration such as "30s" or "2m"`,
	func(p path.Path, s string) (string, string) {
		if d, err := time.ParseDuration(s); err == nil && d > 0 {
			return "", ""
		}
		return "Invalid " + p.String(), fmt.Sprintf(`%s must be a positive duration such as "30s" or "2m", got %q.`, p, s)
	})
