// Draws the Plotly charts of a results page from their figure JSON.
//
// A chart is written by `fixlab render` as <div class="fixlab-chart"> holding a plain link
// to its figure JSON, so the page still works (as a download) without JavaScript.
// plotly.js is large, so it is fetched only when a page with a chart is shown; the colours
// come from Material's CSS variables so charts follow the light/dark switch; and the
// drawing hooks into Material's `document$` so instant navigation redraws them too.
(function () {
  "use strict";

  var plotlyUrl = new URL("plotly.min.js", document.currentScript.src).href;
  var plotlyLoading = null;
  var drawn = [];

  function loadPlotly() {
    if (window.Plotly) return Promise.resolve(window.Plotly);
    if (!plotlyLoading) {
      plotlyLoading = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = plotlyUrl;
        script.onload = function () { resolve(window.Plotly); };
        script.onerror = function () { reject(new Error("cannot load " + plotlyUrl)); };
        document.head.appendChild(script);
      });
    }
    return plotlyLoading;
  }

  // The theme is read from the page itself, so a palette change in mkdocs.yml needs no
  // change here.
  function themeLayout() {
    var style = getComputedStyle(document.body);
    var fg = style.getPropertyValue("--md-default-fg-color").trim() || "#000";
    var grid = style.getPropertyValue("--md-default-fg-color--lightest").trim() || "#ddd";
    var line = style.getPropertyValue("--md-default-fg-color--lighter").trim() || "#999";
    var bg = style.getPropertyValue("--md-default-bg-color").trim() || "#fff";
    var axis = { gridcolor: grid, linecolor: line, zerolinecolor: line, tickcolor: line };
    return {
      paper_bgcolor: "rgba(0,0,0,0)",
      plot_bgcolor: "rgba(0,0,0,0)",
      font: { color: fg, family: style.fontFamily },
      xaxis: axis,
      yaxis: axis,
      legend: { font: { color: fg } },
      hoverlabel: { bgcolor: bg, font: { color: fg } },
    };
  }

  function merge(target, extra) {
    Object.keys(extra).forEach(function (key) {
      var value = extra[key];
      if (value && typeof value === "object" && !Array.isArray(value)) {
        target[key] = merge(target[key] || {}, value);
      } else {
        target[key] = value;
      }
    });
    return target;
  }

  function themedLayout(layout) {
    var theme = themeLayout();
    // Every axis of the figure (xaxis2, yaxis3, ...) gets the axis colours.
    Object.keys(layout).forEach(function (key) {
      if (/^[xy]axis\d*$/.test(key)) theme[key] = theme[key.charAt(0) + "axis"];
    });
    return merge(layout, theme);
  }

  function draw(container, Plotly) {
    var link = container.querySelector("a[href]");
    return fetch(link.href)
      .then(function (response) {
        if (!response.ok) throw new Error(link.href + ": HTTP " + response.status);
        return response.json();
      })
      .then(function (figure) {
        var target = document.createElement("div");
        target.className = "fixlab-chart__plot";
        // A figure that needs more room than the default box (many category labels) says so.
        if (figure.layout && figure.layout.height) target.style.height = figure.layout.height + "px";
        container.appendChild(target);
        return Plotly.newPlot(target, figure.data, themedLayout(figure.layout || {}), {
          responsive: true,
          displaylogo: false,
        }).then(function () {
          drawn.push(target);
          container.dataset.rendered = "true";
        });
      });
  }

  function drawPage() {
    // Plots of a page that instant navigation replaced must let go of their listeners.
    drawn = drawn.filter(function (plot) {
      if (plot.isConnected) return true;
      if (window.Plotly) window.Plotly.purge(plot);
      return false;
    });
    var containers = document.querySelectorAll(".fixlab-chart:not([data-rendered])");
    if (!containers.length) return;
    loadPlotly()
      .then(function (Plotly) {
        containers.forEach(function (container) {
          container.dataset.rendered = "pending";
          draw(container, Plotly).catch(function (error) {
            container.dataset.rendered = "error";
            console.error("fixlab chart:", error);
          });
        });
      })
      .catch(function (error) { console.error("fixlab chart:", error); });
  }

  // relayout takes dotted paths: a nested {xaxis: {...}} would replace the whole axis
  // (title, log type and all) instead of recolouring it.
  function flatten(object, prefix, out) {
    Object.keys(object).forEach(function (key) {
      var value = object[key];
      if (value && typeof value === "object" && !Array.isArray(value)) {
        flatten(value, prefix + key + ".", out);
      } else {
        out[prefix + key] = value;
      }
    });
    return out;
  }

  function retheme() {
    drawn.forEach(function (plot) {
      if (!plot.isConnected) return;
      var axes = {};
      Object.keys(plot.layout).forEach(function (key) {
        if (/^[xy]axis\d*$/.test(key)) axes[key] = {};
      });
      window.Plotly.relayout(plot, flatten(themedLayout(axes), "", {}));
    });
  }

  new MutationObserver(retheme).observe(document.body, {
    attributes: true,
    attributeFilter: ["data-md-color-scheme"],
  });

  // A plot drawn inside a closed block (the release pages fold their charts away) was laid out
  // at no width; when the block opens, it is laid out again at the width it now has.
  document.addEventListener("toggle", function (event) {
    var block = event.target;
    if (!block.open || !window.Plotly) return;
    block.querySelectorAll(".fixlab-chart__plot").forEach(function (plot) {
      window.Plotly.Plots.resize(plot);
    });
  }, true);

  if (window.document$) {
    window.document$.subscribe(drawPage);
  } else {
    document.addEventListener("DOMContentLoaded", drawPage);
  }
})();
