package provider

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// checkHost accepts an absolute http(s) URL with a host and no query or
// fragment. Plain http is accepted for loopback hosts (the local API) and
// otherwise only when insecure is set, since the API key would cross the
// network in clear text.
func checkHost(raw string, insecure bool) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("host must be an http(s) URL such as https://us.posthog.com: %w", err)
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("host must be an http(s) URL such as https://us.posthog.com, got %q", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("host must be a base URL without credentials, query or fragment, got %q", raw)
	}
	if u.Scheme == "http" && !insecure && !isLoopback(u.Hostname()) {
		return fmt.Errorf("host %q uses plain http to a host that is not a loopback address; the API key "+
			"would travel unencrypted. Use https, or set allow_insecure_http = true on a trusted network", raw)
	}
	return nil
}

// isLoopback reports whether host is localhost or a loopback IP address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// httpURLValidator refuses a host that is not an http(s) URL. Whether plain
// http is allowed depends on allow_insecure_http and is checked in
// ValidateConfig.
type httpURLValidator struct{}

func (httpURLValidator) Description(context.Context) string {
	return "must be an http(s) URL"
}

func (v httpURLValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (httpURLValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := checkHost(req.ConfigValue.ValueString(), true); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid host", err.Error())
	}
}

// notBlankValidator refuses an empty or whitespace-only string.
type notBlankValidator struct{}

func (notBlankValidator) Description(context.Context) string { return "must not be empty or blank" }

func (v notBlankValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (notBlankValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if strings.TrimSpace(req.ConfigValue.ValueString()) == "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(),
			req.Path.String()+" must not be empty or blank.")
	}
}

// durationValidator refuses a string that is not a positive Go duration.
type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return `must be a positive duration such as "30s" or "2m"`
}

func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v durationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	d, err := time.ParseDuration(req.ConfigValue.ValueString())
	if err != nil || d <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(),
			fmt.Sprintf("%s %s, got %q.", req.Path, v.Description(ctx), req.ConfigValue.ValueString()))
	}
}
