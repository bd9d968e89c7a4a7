// Draws every [data-chart] div from the options inlined in #report-data, then reports to the render check.
(function () {
  'use strict';
  var check = window.servebenchRenderCheck;
  var drawn = [];
  try {
    var data = JSON.parse(document.getElementById('report-data').textContent);
    var divs = document.querySelectorAll('[data-chart]');
    for (var i = 0; i < divs.length; i++) {
      var div = divs[i];
      var name = div.getAttribute('data-chart');
      try {
        var option = data.charts[name];
        if (!option) {
          throw new Error('no options inlined for it');
        }
        var chart = echarts.init(div, null, { renderer: 'canvas' });
        chart.setOption(option);
        drawn.push(chart);
        if (echarts.getInstanceByDom(div) === chart && div.querySelector('canvas')) {
          div.setAttribute('data-rendered', 'true');
        } else {
          check.errors.push('chart ' + name + ': no canvas after init');
        }
      } catch (e) {
        check.errors.push('chart ' + name + ': ' + e.message);
      }
    }
    window.addEventListener('resize', function () {
      drawn.forEach(function (chart) { chart.resize(); });
    });
  } catch (e) {
    check.errors.push('report data: ' + e.message);
  }
  // ECharts draws on the next animation frame; errors from that frame must be in before the verdict.
  window.setTimeout(function () { check.finish(drawn.length); }, 250);
})();
