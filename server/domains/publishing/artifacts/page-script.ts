/**
 * The artifact page's own script, inlined and allowed by its hash (no author script ever runs): tabs with
 * arrow keys, sortable tables, and transcript words that follow the audio as it plays (click a word to seek).
 * Plain ES2017 so it runs in any current browser without a build step.
 */
export const ARTIFACT_SCRIPT = `(function () {
  'use strict';
  function selectTab(tabs, index, focus) {
    var buttons = tabs.querySelectorAll('[role="tab"]');
    for (var i = 0; i < buttons.length; i++) {
      var on = i === index;
      buttons[i].setAttribute('aria-selected', on ? 'true' : 'false');
      buttons[i].tabIndex = on ? 0 : -1;
      document.getElementById(buttons[i].getAttribute('aria-controls')).hidden = !on;
    }
    if (focus) buttons[index].focus();
  }
  document.querySelectorAll('[data-tabs]').forEach(function (tabs) {
    var buttons = Array.prototype.slice.call(tabs.querySelectorAll('[role="tab"]'));
    buttons.forEach(function (button, i) {
      button.addEventListener('click', function () { selectTab(tabs, i, false); });
      button.addEventListener('keydown', function (event) {
        var next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: buttons.length - 1 }[event.key];
        if (next === undefined) return;
        event.preventDefault();
        selectTab(tabs, (next + buttons.length) % buttons.length, true);
      });
    });
  });

  function cellValue(row, index, numeric) {
    var cell = row.cells[index];
    if (!numeric) return cell.textContent.trim().toLowerCase();
    var raw = cell.getAttribute('data-value');
    return raw === null ? -Infinity : Number(raw);
  }
  document.querySelectorAll('table[data-sortable]').forEach(function (table) {
    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
    headers.forEach(function (th, index) {
      var button = th.querySelector('button');
      if (!button) return;
      button.addEventListener('click', function () {
        var ascending = th.getAttribute('aria-sort') !== 'ascending';
        headers.forEach(function (other) { other.setAttribute('aria-sort', 'none'); });
        th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
        var numeric = th.getAttribute('data-type') === 'number';
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = cellValue(a, index, numeric), y = cellValue(b, index, numeric);
          var order = x < y ? -1 : x > y ? 1 : 0;
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });

  document.querySelectorAll('.fo-transcript[data-audio]').forEach(function (transcript) {
    var audio = document.getElementById(transcript.getAttribute('data-audio'));
    var words = Array.prototype.slice.call(transcript.querySelectorAll('span[data-start]'));
    var starts = words.map(function (w) { return Number(w.getAttribute('data-start')); });
    var current = -1;
    function wordAt(time) {
      var low = 0, high = starts.length - 1, found = -1;
      while (low <= high) {
        var mid = (low + high) >> 1;
        if (starts[mid] <= time) { found = mid; low = mid + 1; } else high = mid - 1;
      }
      return found;
    }
    function update() {
      var index = wordAt(audio.currentTime);
      if (index === current) return;
      words.forEach(function (w, i) {
        w.classList.toggle('fo-spoken', i < index);
        w.classList.toggle('fo-current', i === index);
      });
      current = index;
      if (index >= 0) {
        var word = words[index];
        var top = word.offsetTop - transcript.offsetTop;
        if (top < transcript.scrollTop || top > transcript.scrollTop + transcript.clientHeight - 24)
          transcript.scrollTop = top - transcript.clientHeight / 3;
      }
    }
    var frame = 0;
    function follow() { update(); if (!audio.paused) frame = requestAnimationFrame(follow); }
    audio.addEventListener('play', function () { cancelAnimationFrame(frame); follow(); });
    audio.addEventListener('timeupdate', update);
    audio.addEventListener('seeked', update);
    words.forEach(function (w, i) {
      w.addEventListener('click', function () { audio.currentTime = starts[i]; update(); });
    });
  });
})();`;
