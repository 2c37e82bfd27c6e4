package framework

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle"
)

// AttrPathFunc maps an API error's attr (e.g. "filters__events__0__type") to
// the schema attribute it concerns, if any.
type AttrPathFunc func(attr string) (path.Path, bool)

// AddAPIError adds err to diags with summary, on the attribute the service
// named when attrPath knows it, so that Terraform points at the line.
func AddAPIError(diags *diag.Diagnostics, summary string, err error, attrPath AttrPathFunc) {
	detail := DescribeError(err)
	var apiErr *client.APIError
	if errors.As(err, &apiErr) && apiErr.Attr != "" && attrPath != nil {
		if p, ok := attrPath(apiErr.Attr); ok {
			diags.AddAttributeError(p, summary, detail)
			return
		}
	}
	diags.AddError(summary, detail)
}

// DescribeError renders err for a diagnostic's detail: what was called, the
// status, what the service said, and a hint for the usual causes.
func DescribeError(err error) string {
	var thrErr *client.ThrottledError
	if errors.As(err, &thrErr) {
		return err.Error() + "\n\n" + throttledHint(thrErr.Until, thrErr.Wait, thrErr.Limit)
	}
	if client.IsServiceGone(err) {
		return err.Error() + ".\n\n" + client.ServiceGoneHint
	}
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) {
		return err.Error() + waitHint(err)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "%s %s answered %d %s.", apiErr.Method, apiErr.Path, apiErr.Status, http.StatusText(apiErr.Status))
	if apiErr.Detail != "" {
		fmt.Fprintf(&b, "\n\nService detail: %s", apiErr.Detail)
	}
	if apiErr.Attr != "" {
		fmt.Fprintf(&b, "\nAttribute: %s", apiErr.Attr)
	}
	if apiErr.Code != "" || apiErr.Type != "" {
		fmt.Fprintf(&b, "\nError code: %s (%s)", apiErr.Code, apiErr.Type)
	}
	switch apiErr.Status {
	case http.StatusUnauthorized:
		b.WriteString("\n\nCheck the provider's api_key (or POSTHOG_API_KEY).")
	case http.StatusForbidden:
		b.WriteString("\n\n" + client.ForbiddenHint(err))
	case http.StatusTooManyRequests:
		wait := time.Duration(apiErr.RetryAfter) * time.Second
		b.WriteString("\n\n" + throttledHint(time.Now().Add(wait), wait, nil))
	}
	return b.String()
}

// throttledHint says what to do when a throttle outlasts the time limit of
// an operation (limit, a *TimeLimitError, tells which; nil when unknown).
func throttledHint(until time.Time, wait time.Duration, limit error) string {
	more := "."
	var l *TimeLimitError
	if errors.As(limit, &l) {
		more = " (" + l.more() + ")."
		if l.Settable {
			more = ", or give the operation more than " + throttle.RoundWait(wait).String() + " with the resource's " +
				"timeouts block (the service's hourly limit asks for waits of up to an hour)."
		}
	}
	return "Run again after " + until.UTC().Format("2006-01-02 15:04:05 UTC") + more + " If other jobs or people " +
		"use the same API key, give this run a key of its own, or lower requests_per_minute in each of them so " +
		"that together they stay under the service's limit."
}

// waitHint says what to do about a request that waited too long, as
// the construct allows; "" for another failure.
func waitHint(err error) string {
	var limit *TimeLimitError
	switch {
	case errors.As(err, new(*client.AttemptTimeoutError)) || errors.As(err, new(*client.SilentHostError)):
		return "\n\nThe service did not answer in time. Check that host names a PostHog instance that is up and " +
			"reachable from here: a firewall that drops packets, or a proxy that accepts connections and never " +
			"answers, looks like this. If the service is only slow, raise the provider's request_timeout."
	case errors.As(err, &limit):
		return "\n\nThe operation ran out of time: " + limit.more() + ". Check that the service answers, and " +
			"run again."
	case errors.Is(err, context.DeadlineExceeded):
		return "\n\nThe operation ran out of time: check that the service answers, and run again."
	}
	return ""
}

// AddCustomActionError reports a failed custom action: for a key the
// service refused, why and what to do instead; else the usual API error.
func AddCustomActionError(diags *diag.Diagnostics, summary string, a client.CustomAction, err error, attrPath AttrPathFunc) {
	if !client.IsKeyRefused(err) {
		AddAPIError(diags, summary, err, attrPath)
		return
	}
	var apiErr *client.APIError
	_ = errors.As(err, &apiErr)
	diags.AddError(summary, fmt.Sprintf("%s %s answered 403 Forbidden: %q.\n\n"+
		"The service lets no personal API key with scopes call %s, and since March 2026 PostHog gives every "+
		"personal API key scopes (keys created without any got \"*\"): only a browser session in PostHog's UI "+
		"may call it. %s",
		apiErr.Method, apiErr.Path, apiErr.Detail, a, client.InsteadOf(a)))
}

// RefuseKeyAtPlan refuses at plan time a custom action the service would
// refuse this key (client.KeyMayCallActions); it reports whether it refused.
func RefuseKeyAtPlan(ctx context.Context, meta *ProviderData, project string, coll client.Collection, id int64, a client.CustomAction,
	attr path.Path, diags *diag.Diagnostics,
) bool {
	if may, known := meta.Client.KeyMayCallActions(ctx, project, coll, id); may || !known {
		return false
	}
	diags.AddAttributeError(attr, fmt.Sprintf("This API key may not call %s", a), fmt.Sprintf(
		"The service lets no personal API key with scopes call %s, and since March 2026 PostHog gives every personal "+
			"API key scopes: only a browser session in PostHog's UI may. Nothing was sent. %s", a, client.InsteadOf(a)))
	return true
}

// Default time limits of whole operations, retries and rate-limit waits
// included, where no timeouts block sets them.
const (
	DefaultWriteTimeout = 10 * time.Minute
	DefaultReadTimeout  = 5 * time.Minute
)

// TimeoutFunc reads one operation's time limit from a timeouts block (plan.Timeouts.Create).
type TimeoutFunc func(ctx context.Context, defaultTimeout time.Duration) (time.Duration, diag.Diagnostics)

// OperationContext bounds ctx by a resource operation's time limit, so that
// retries and rate-limit waits stop with it; an unreadable limit is an
// error in diags.
func OperationContext(ctx context.Context, timeout TimeoutFunc, defaultTimeout time.Duration, diags *diag.Diagnostics) (context.Context, context.CancelFunc) {
	limit, d := timeout(ctx, defaultTimeout)
	diags.Append(d...)
	return client.WithTimeLimit(ctx, limit, &TimeLimitError{Limit: limit, Settable: true})
}

// DataSourceContext bounds a data source's read by DefaultReadTimeout: it
// has no timeouts block, and pages that never end must not hold the run.
func DataSourceContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return client.WithTimeLimit(ctx, DefaultReadTimeout, &TimeLimitError{Limit: DefaultReadTimeout})
}

// TimeLimitError is the end of an operation's time limit; it is a
// context.DeadlineExceeded, and says how to give the operation more time.
type TimeLimitError struct {
	Limit    time.Duration
	Settable bool // by a resource's timeouts block; a data source has none
}

func (e *TimeLimitError) Error() string {
	return fmt.Sprintf("the operation's time limit of %s ran out", e.Limit)
}

// Unwrap makes it a context.DeadlineExceeded.
func (e *TimeLimitError) Unwrap() error { return context.DeadlineExceeded }

// more says how the operation gets more time, or that it cannot.
func (e *TimeLimitError) more() string {
	if e.Settable {
		return "give it more with the resource's timeouts block"
	}
	return fmt.Sprintf("a data source has no timeouts block: its read stops after %s", e.Limit)
}
