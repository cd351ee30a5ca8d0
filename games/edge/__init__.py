"""What the two edges share, the pages (``games.web``) and the JSON API (``games.api``), which never import each
other: ``http_errors``, the one table from the domain's errors to an HTTP status and code. The domain (services,
selectors, models) never imports it."""
