package provider

import (
	"context"
	"fmt"
	"os"
	"strconv"
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

// Attribute names, environment variables and defaults of the provider
// configuration. host, api_key and project_id and their variables are those
// of the official PostHog provider.
const (
	attrHost              = "host"
	attrAPIKey            = "api_key"
	attrProjectID         = "project_id"
	attrMaxRetries        = "max_retries"
	attrRequestTimeout    = "request_timeout"
	attrRequestsPerMinute = "requests_per_minute"
	attrRetryWaitMax      = "retry_wait_max"
	attrAllowInsecureHTTP = "allow_insecure_http"

	envHost      = "POSTHOG_HOST"
	envAPIKey    = "POSTHOG_API_KEY" //nolint:gosec // the name of a variable, not a credential
	envProjectID = "POSTHOG_PROJECT_ID"

	defaultHost              = "https://us.posthog.com"
	maxMaxRetries            = 20
	defaultRequestTimeout    = 30 * time.Second
	defaultRequestsPerMinute = 400 // under the live service's 480 per minute and key
)

// The retry defaults are the client's.
const (
	defaultMaxRetries   = client.DefaultMaxRetries
	retryWaitMin        = client.DefaultRetryWaitMin
	defaultRetryWaitMax = client.DefaultRetryWaitMax
)

var (
	hostPath      = path.Root(attrHost)
	apiKeyPath    = path.Root(attrAPIKey)
	projectIDPath = path.Root(attrProjectID)
)

// providerModel is the provider configuration.
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

// hasUnknown reports whether any setting is only known after apply.
func (m providerModel) hasUnknown() bool {
	return m.Host.IsUnknown() || m.APIKey.IsUnknown() || m.ProjectID.IsUnknown() ||
		m.MaxRetries.IsUnknown() || m.RequestTimeout.IsUnknown() ||
		m.RequestsPerMinute.IsUnknown() || m.RetryWaitMax.IsUnknown() || m.AllowInsecureHTTP.IsUnknown()
}

// stringSetting returns the configured value, else the environment
// variable's, else def.
func stringSetting(v types.String, env, def string) string {
	if !v.IsNull() {
		return v.ValueString()
	}
	if e, ok := os.LookupEnv(env); ok && e != "" {
		return e
	}
	return def
}

// Configure implements provider.Provider: it resolves the settings against
// their environment variables and defaults, checks what validation could not
// see (values from the environment), and hands a client to every construct.
func (p *pipelineProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cfg.hasUnknown() {
		// Terraform configures the provider again once the values are known;
		// constructs report "not configured" if they are called before that.
		tflog.Debug(ctx, "provider configuration has unknown values; not configuring the client yet")
		return
	}

	host := strings.TrimRight(stringSetting(cfg.Host, envHost, defaultHost), "/")
	if err := checkHost(host, cfg.AllowInsecureHTTP.ValueBool()); err != nil {
		resp.Diagnostics.AddAttributeError(hostPath, "Invalid host",
			fmt.Sprintf("%s (from the host setting or %s)", err, envHost))
	}

	apiKey := stringSetting(cfg.APIKey, envAPIKey, "")
	if strings.TrimSpace(apiKey) == "" {
		resp.Diagnostics.AddAttributeError(apiKeyPath, "Missing API key",
			"The provider needs a personal API key: set api_key in the provider block or the "+
				envAPIKey+" environment variable. It must not be empty or blank.")
	}

	projectID := strings.TrimSpace(stringSetting(cfg.ProjectID, envProjectID, ""))
	if projectID != "" && !framework.ValidProjectID(projectID) {
		resp.Diagnostics.AddAttributeError(projectIDPath, "Invalid project_id",
			fmt.Sprintf(`project_id (or %s) must be a positive integer or "@current", got %q.`, envProjectID, projectID))
	}

	requestTimeout := defaultRequestTimeout
	if !cfg.RequestTimeout.IsNull() {
		// The attribute validator has already refused malformed durations.
		requestTimeout, _ = time.ParseDuration(cfg.RequestTimeout.ValueString())
	}
	maxRetries := int64(defaultMaxRetries)
	if !cfg.MaxRetries.IsNull() {
		maxRetries = cfg.MaxRetries.ValueInt64()
	}
	// retry_wait_max bounds the backoff between retries of a 5xx or a
	// network error; the shortest wait never exceeds it.
	waitMax := defaultRetryWaitMax
	if !cfg.RetryWaitMax.IsNull() {
		// The attribute validator has already refused malformed durations.
		waitMax, _ = time.ParseDuration(cfg.RetryWaitMax.ValueString())
	}
	waitMin := min(retryWaitMin, waitMax)
	rpm := int64(defaultRequestsPerMinute)
	if !cfg.RequestsPerMinute.IsNull() {
		rpm = cfg.RequestsPerMinute.ValueInt64()
	}
	if resp.Diagnostics.HasError() {
		return
	}

	c, err := client.New(client.Config{
		Host:              host,
		APIKey:            apiKey,
		UserAgent:         fmt.Sprintf("Terraform/%s terraform-provider-pipeline/%s", req.TerraformVersion, p.version),
		MaxRetries:        int(maxRetries),
		RetryWaitMin:      waitMin,
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

	data := &framework.ProviderData{Client: c, ProjectID: projectID, JournalDir: p.createJournalDir()}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ActionData = data
	resp.ListResourceData = data
}

// createJournalDir is where this provider journals its creates.
func (p *pipelineProvider) createJournalDir() string {
	if p.journalDir != nil {
		return *p.journalDir
	}
	return createonce.DefaultJournalDir()
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
