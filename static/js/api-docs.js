// The API docs page (templates/ninja/swagger.html): Swagger UI's own dark theme (html.dark-mode), following the
// system's setting as the site's pages do.
(function () {
  "use strict";
  var dark = window.matchMedia("(prefers-color-scheme: dark)");
  function follow() { document.documentElement.classList.toggle("dark-mode", dark.matches); }
  follow();
  dark.addEventListener("change", follow);
})();
