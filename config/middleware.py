"""Site-wide middleware."""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import unquote_to_bytes, urlencode, urlsplit

import django.middleware.common
from django.conf import settings
from django.core.exceptions import BadRequest, RequestDataTooBig, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render, resolve_url
from django.urls import Resolver404, resolve
from django_htmx.http import HttpResponseClientRedirect


class CommonMiddleware(django.middleware.common.CommonMiddleware):
    """Django's, adding the trailing slash by a redirect only for GET and HEAD.

    A redirect cannot carry a POST's body: Django raises a RuntimeError under DEBUG (a 500) and otherwise
    loses the body in a 301. A form or a client posting to ``/games/12/move`` gets the 404 of an address
    that does not exist, which says where the slash goes, and nothing changes.
    """

    def should_redirect_with_slash(self, request: HttpRequest) -> bool:
        return request.method in ("GET", "HEAD") and super().should_redirect_with_slash(request)


class PermissionsPolicyMiddleware:
    """The Permissions-Policy header (settings.PERMISSIONS_POLICY) on every answer that has none."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.policy = settings.PERMISSIONS_POLICY

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", self.policy)
        return response


class UnsupportedMethodMiddleware:
    """TRACE, CONNECT and methods nobody defined get a 405 before any view: some views take any method (the
    API's docs, a redirect), and none of them means anything by these."""

    SUPPORTED = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in self.SUPPORTED:
            return self.get_response(request)
        message = f"This site does not answer {str(request.method)[:20]!r} requests."
        if request.path_info.startswith(API_PREFIX):
            response: HttpResponse = JsonResponse({"code": "method_not_allowed", "message": message}, status=405)
        else:
            response = render(
                request, "_error.html", {"status": 405, "title": "Method not allowed", "message": message}, status=405
            )
        response["Allow"] = ", ".join(sorted(self.SUPPORTED))
        return response


def error_page(request: HttpRequest, status: int, title: str, message: str) -> HttpResponse:
    """The site's error page (JSON under /api/) for an answer given before any view runs."""
    if request.path_info.startswith(API_PREFIX):
        code = {400: "invalid_input", 413: "too_large"}.get(status, "error")
        return JsonResponse({"code": code, "message": message}, status=status)
    return render(request, "_error.html", {"status": status, "title": title, "message": message}, status=status)


class FormBodyMiddleware:
    """A posted form whose body cannot be read gets a 400 (413 if too large) here, before anything parses it.

    Django raises while parsing such a body (a charset other than UTF-8) and raises again at each later read
    (CSRF, the view, the error page), which made gunicorn's bare 500; bytes that are not UTF-8 it silently
    replaces. A multipart body without its closing boundary was cut off on the way: Django would parse the
    parts it got as a whole form. The body is parsed once here and kept on the request.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.content_type in FORM_TYPES:
            try:
                problem = _form_body_problem(request)
            except RequestDataTooBig:
                return error_page(request, 413, "Too large", "The form sent was too large for this site.")
            if problem:
                return error_page(request, 400, "Bad request", problem)
        return self.get_response(request)


def _form_body_problem(request: HttpRequest) -> str:
    body = request.body
    if request.content_type == "application/x-www-form-urlencoded":
        charset = request.content_params.get("charset")
        if charset is not None and charset.strip().lower() != "utf-8":
            return f"Forms must be sent as UTF-8; this one said charset={charset[:40]!r}. Reload the page, try again."
        if not _is_utf8_form(body):
            return "The form's contents are not valid UTF-8 text. Reload the page and try again."
    else:
        boundary = request.content_params.get("boundary", "").encode("latin-1", "replace")
        if not boundary:
            return "The form's Content-Type names no multipart boundary, so its parts cannot be told apart."
        if not re.search(rb"(?:\A|\r\n)--" + re.escape(boundary) + rb"--", body):
            return "The form arrived incomplete (its body ends before its closing boundary). Try sending it again."
    try:
        request.POST  # noqa: B018 -- parsed once, kept on the request
    except (BadRequest, MultiPartParserError, SuspiciousOperation) as err:
        return f"The form could not be read: {str(err)[:200]}"
    return ""


def _is_utf8_form(body: bytes) -> bool:
    try:
        for pair in body.decode("utf-8").split("&"):
            for part in pair.split("=", 1):
                unquote_to_bytes(part.replace("+", " ")).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class HtmxLoginRedirectMiddleware:
    """A signed-out htmx request goes to the login page as a whole page, not into the part it meant to swap.

    A poll after the session expired, or a move in a tab left open after logging out elsewhere, is
    answered by ``login_required`` with a redirect that the browser follows inside the htmx request:
    the login form would replace the board or the lobby. Here such an answer becomes ``HX-Redirect``
    (htmx loads the login page instead), and after signing in the player comes back to the page they
    were on (``HX-Current-URL``), not to the partial's own address.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        htmx = getattr(request, "htmx", None)
        if not htmx or response.status_code not in (301, 302, 303, 307, 308):
            return response
        login_path = urlsplit(resolve_url(settings.LOGIN_URL)).path
        if urlsplit(response.get("Location", "")).path != login_path:
            return response
        try:
            back_to = htmx.current_url_abs_path or "/"
        except ValueError:  # a forged HX-Current-URL that is not a URL at all ('http://[::1')
            back_to = "/"
        return HttpResponseClientRedirect(f"{login_path}?{urlencode({'next': back_to})}")


class MethodNotAllowedPageMiddleware:
    """A page for the empty 405 answers of ``require_POST`` and the like, when a person sees them.

    Opening a form's address (``/games/<id>/move/``) from the history or the address bar would show a
    blank page. The status and the ``Allow`` header stay; htmx requests and answers that already have a
    body (the JSON API's) are left as they are.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content or getattr(request, "htmx", False):
            return response
        page = render(request, "405.html", status=405)
        if "Allow" in response:
            page["Allow"] = response["Allow"]
        return page


class NullCharacterMiddleware:
    """A NUL character in the address, the query string or a posted form gets a 400 before any view runs.

    No field of this site may hold one. Django's form fields refuse them, but a view or the admin that
    looks a raw value up (``/players/a%00b/``, an admin filter) would hand it to the database, and
    PostgreSQL refuses NUL in text outright (a 500), while SQLite would store it. Forms are checked
    field by field (both encodings); JSON bodies are the API's to judge.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _holds_nul(request):
            message = "The request contained a NUL character (\\0), which no address or field of this site accepts."
            if request.path_info.startswith(API_PREFIX):
                return JsonResponse({"code": "invalid_input", "message": message}, status=400)
            return render(
                request, "_error.html", {"status": 400, "title": "Bad request", "message": message}, status=400
            )
        return self.get_response(request)


def _holds_nul(request: HttpRequest) -> bool:
    query = request.META.get("QUERY_STRING", "")
    if "\x00" in request.path_info or "%00" in query or "\x00" in query:
        return True
    if request.method != "POST" or request.content_type not in FORM_TYPES or request.path_info.startswith(API_PREFIX):
        return False  # the API reads its own bodies (JSON errors, 413; its strings refuse NUL)
    # parsed here rather than in the view: the same parse, kept on the request
    return any("\x00" in key or any("\x00" in value for value in values) for key, values in request.POST.lists())


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
API_PREFIX = "/api/"  # config.urls mounts the JSON API here


class SiteNotFoundMiddleware:
    """The site's own 404 page under DEBUG too (``make run``): Django's yellow debug page lists every URL pattern
    and is no page for a player. An address nothing answers is found out before any view (Django's resolver would
    answer it with the debug page); a view's Http404 through ``process_exception``. Without DEBUG Django already
    uses the site's handler404, and this costs one settings lookup."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.DEBUG:
            try:
                resolve(request.path_info, getattr(request, "urlconf", None))
            except Resolver404 as err:
                return _not_found(request, err)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if settings.DEBUG and isinstance(exception, Http404):
            return _not_found(request, exception)
        return None


def _not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    from config.views import page_not_found  # the handler404 itself (views import this module's constants)

    return page_not_found(request, exception)
