"""django-csp's middleware with the header built once: the site's policy is the same on every answer.

django-csp builds the Content-Security-Policy string anew for each response (a copy of the settings, every
directive joined again), which is worth doing only when a view changes the policy (its decorators) or a
template asks for a nonce. This site does neither on its ordinary answers, so those get the string built
once per settings object; anything else goes through django-csp unchanged.
"""

from __future__ import annotations

import csp.middleware
from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.utils import build_policy
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

#: what a view's decorators set on a response; any of them means the policy is that view's own
_PER_VIEW = (
    "_csp_config", "_csp_update", "_csp_replace", "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro",
    "_csp_exempt", "_csp_exempt_ro",
)


class CSPMiddleware(csp.middleware.CSPMiddleware):
    _built: tuple[object, object, str, str] | None = None

    def _policies(self) -> tuple[str, str] | None:
        """(policy, report-only policy) from the settings, built once per settings object; None when the settings
        exclude some paths (django-csp then decides per request)."""
        enforced = getattr(settings, "CONTENT_SECURITY_POLICY", None)
        report_only = getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None)
        if any((policy or {}).get("EXCLUDE_URL_PREFIXES") for policy in (enforced, report_only)):
            return None
        built = self._built
        if built is None or built[0] is not enforced or built[1] is not report_only:
            built = self._built = (enforced, report_only, build_policy(), build_policy(report_only=True))
        return built[2], built[3]

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        policies = None
        if getattr(request, "_csp_nonce", None) is None and not any(hasattr(response, a) for a in _PER_VIEW):
            policies = self._policies()
        if policies is None or (settings.DEBUG and response.status_code in (404, 500)):
            return super().process_response(request, response)
        policy, report_only = policies
        if policy and HEADER not in response:
            response[HEADER] = policy
        if report_only and HEADER_REPORT_ONLY not in response:
            response[HEADER_REPORT_ONLY] = report_only
        # as django-csp does: a nonce asked for after the header is written is an error, not a silent gap
        request.csp_nonce = csp.middleware.CheckableLazyObject(self._csp_nonce_post_response)
        return response
