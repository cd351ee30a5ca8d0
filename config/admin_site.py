"""The admin site: every model admin on it answers odd query strings and forged selections with the admin's
own messages, not a 500.

Django's admin trusts a few things staff could still type or forge: a date lookup at or past the year 9999
(``?created__year=99999`` fails when the query is compiled, after the page has started rendering; the date
hierarchy's ``?created__year=9999`` when it works out the year's end), and
action ids that are not ids (``_selected_action=abc``). Each model admin registered on this site, ours and
the ones other apps bring (auth's groups, axes' logs), gets ``SafeAdminMixin``. Every admin page answers GET,
HEAD and POST only: a PUT, a DELETE or an OPTIONS is a 405 (Django's views took them for a GET).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.admin import AdminSite, ModelAdmin, helpers
from django.contrib.admin.apps import AdminConfig
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import EmptyResultSet, FullResultSet, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import method_decorator
from django.views.decorators.http import require_http_methods


class SafeChangeList(ChangeList):
    def get_queryset(self, request: HttpRequest, exclude_parameters: Any = None) -> QuerySet:
        try:  # the date hierarchy's end of year 9999 ('?created__year=9999') overflows in Django's own code
            queryset = super().get_queryset(request, exclude_parameters)
        except (ValueError, OverflowError) as err:
            raise IncorrectLookupParameters(err) from err
        try:
            # compile now, while a bad lookup can still become the admin's "?e=1" page
            queryset.query.get_compiler(queryset.db).as_sql()
        except (EmptyResultSet, FullResultSet):
            pass
        except (ValueError, OverflowError) as err:
            raise IncorrectLookupParameters(err) from err
        return queryset


class SafeAdminMixin:
    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return SafeChangeList

    def response_action(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        field = self.model._meta.pk  # type: ignore[attr-defined]
        for value in request.POST.getlist(helpers.ACTION_CHECKBOX_NAME):
            try:
                field.run_validators(field.to_python(value))
            except ValidationError:
                self.message_user(  # type: ignore[attr-defined]
                    request, f"Nothing was done: {value[:40]!r} is not the id of any item here.", messages.ERROR
                )
                return None  # the changelist again, with the message
        return super().response_action(request, queryset)  # type: ignore[misc]


#: what the admin's pages answer: they are pages and forms; any other method is a 405 (Django's admin views
#: took a PUT or a DELETE for a GET and answered 200)
ADMIN_METHODS = ("GET", "HEAD", "POST")


class Site(AdminSite):
    def admin_view(self, view: Callable, cacheable: bool = False) -> Callable:
        """Every admin page but the log-in (Django wraps them all with this): only ADMIN_METHODS."""
        return require_http_methods(ADMIN_METHODS)(super().admin_view(view, cacheable))

    @method_decorator(require_http_methods(ADMIN_METHODS))
    def login(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        return super().login(request, extra_context)

    @property
    def login_form(self) -> type:  # type: ignore[override]
        from players.forms import AdminLoginForm  # (the apps are not loaded yet when this module is imported)

        return AdminLoginForm

    def register(self, model_or_iterable: Any, admin_class: type[ModelAdmin] | None = None, **options: Any) -> None:
        admin_class = admin_class or ModelAdmin
        if not issubclass(admin_class, SafeAdminMixin):
            namespace = {"__module__": admin_class.__module__}
            admin_class = type(admin_class.__name__, (SafeAdminMixin, admin_class), namespace)
        super().register(model_or_iterable, admin_class, **options)


class SiteAdminConfig(AdminConfig):
    default_site = "config.admin_site.Site"

    def ready(self) -> None:
        super().ready()
        # The site's own wiring that needs the apps loaded: the throttle counts failed log-ins by a signal.
        import config.throttle  # noqa: F401
