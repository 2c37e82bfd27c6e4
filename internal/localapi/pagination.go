package localapi

import (
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// defaultPageSize is the live default; there is no maximum.
const defaultPageSize = 100

// listPage is one page of a list answer, as the live paginator writes it.
type listPage[T any] struct {
	Count    int64   `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  []T     `json:"results"`
}

// newPage is the page of results at offset, of count in all, with its links.
func newPage[T any](r *http.Request, count, limit, offset int64, results []T) *listPage[T] {
	p := &listPage[T]{Count: count, Results: results}
	p.Next, p.Previous = pageLinks(r, count, limit, offset)
	return p
}

// pageWindow reads the request's limit and offset.
func pageWindow(r *http.Request) (limit, offset int64) {
	q := r.URL.Query()
	return pageLimit(lastValue(q, "limit")), pageOffset(lastValue(q, "offset"))
}

// pageLimit reads limit: a positive integer, anything else is the default.
func pageLimit(raw string) int64 {
	n, ok := pyPositiveInt(raw)
	if !ok || n == 0 {
		return defaultPageSize
	}
	return n
}

// pageOffset reads offset: a non-negative integer, anything else is 0.
func pageOffset(raw string) int64 {
	n, _ := pyPositiveInt(raw)
	return n
}

// pyPositiveInt parses a non-negative integer as Python's int() would;
// values too large for int64 are clamped.
func pyPositiveInt(raw string) (int64, bool) {
	if raw == "" {
		return 0, false
	}
	n, ok := python.Int(raw)
	if !ok || strings.Contains(raw, ".") || n.Sign() < 0 {
		return 0, false
	}
	if !n.IsInt64() {
		return math.MaxInt64, true
	}
	return n.Int64(), true
}

func lastValue(q url.Values, name string) string {
	vals := q[name]
	if len(vals) == 0 {
		return ""
	}
	return vals[len(vals)-1]
}

// pageLinks builds the absolute next and previous URLs as the live
// paginator does: the request's own URL with limit and offset replaced
// (query keys sorted), previous without offset when it would be 0.
func pageLinks(r *http.Request, count, limit, offset int64) (next, previous *string) {
	if offset < count-limit { // offset+limit < count, without overflow
		u := absoluteURL(r, func(q url.Values) {
			q.Set("limit", strconv.FormatInt(limit, 10))
			q.Set("offset", strconv.FormatInt(offset+limit, 10))
		})
		next = &u
	}
	if offset > 0 {
		u := absoluteURL(r, func(q url.Values) {
			q.Set("limit", strconv.FormatInt(limit, 10))
			if offset-limit <= 0 {
				q.Del("offset")
			} else {
				q.Set("offset", strconv.FormatInt(offset-limit, 10))
			}
		})
		previous = &u
	}
	return next, previous
}

// absoluteURL is the request's URL on the host the server believes it has:
// X-Forwarded-Proto and X-Forwarded-Host when a proxy sets them.
func absoluteURL(r *http.Request, edit func(url.Values)) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := firstForwarded(r.Header.Get("X-Forwarded-Proto")); p != "" {
		scheme = p
	}
	host := r.Host
	if h := firstForwarded(r.Header.Get("X-Forwarded-Host")); h != "" {
		host = h
	}
	q := r.URL.Query()
	edit(q)
	u := url.URL{Scheme: scheme, Host: host, Path: r.URL.Path, RawPath: r.URL.RawPath, RawQuery: q.Encode()}
	return u.String()
}

func firstForwarded(v string) string {
	first, _, _ := strings.Cut(v, ",")
	return strings.TrimSpace(first)
}
