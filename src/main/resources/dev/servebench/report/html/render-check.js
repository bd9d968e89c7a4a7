// Records every error the page raises, so a headless check can read the outcome from <body> attributes.
// Runs before the chart library, so errors inside it are caught too.
window.servebenchRenderCheck = (function () {
  'use strict';
  var errors = [];
  window.addEventListener('error', function (event) {
    errors.push('error: ' + (event.message || event.type));
  });
  window.addEventListener('unhandledrejection', function (event) {
    errors.push('unhandled rejection: ' + event.reason);
  });
  var consoleError = console.error;
  console.error = function () {
    errors.push('console.error: ' + Array.prototype.map.call(arguments, String).join(' '));
    return consoleError.apply(console, arguments);
  };
  return {
    errors: errors,
    finish: function (charts) {
      document.body.setAttribute('data-charts', String(charts));
      document.body.setAttribute('data-render-errors', errors.join(' | '));
      document.body.setAttribute('data-render-status', errors.length === 0 ? 'ok' : 'error');
    }
  };
})();
