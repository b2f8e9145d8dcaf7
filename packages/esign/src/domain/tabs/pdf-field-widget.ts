import type { PdfFieldWidget } from './pdf-form-field.ts';
import type { AbsolutePlace } from './tab.ts';

// A box's bound: a US Legal page (parse-tab-base.ts bounds width and height alike).
const MAX_SIZE = 1008;

/** How a field is named in errors: quoted, cut short, controls shown escaped. */
export function shownFieldName(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
}

/** A widget's place as a tab's. */
export function widgetPlace(documentId: string, widget: PdfFieldWidget): AbsolutePlace {
  return { kind: 'absolute', documentId, pageNumber: widget.pageNumber, xPosition: widget.x, yPosition: widget.y };
}

/** The one widget of a field that a tab can sit on; a field in several places or none is refused by `refuse`. */
export function onlyWidget(widgets: readonly PdfFieldWidget[], refuse: (why: string) => never): PdfFieldWidget {
  const [widget] = widgets;
  if (!widget) return refuse('it has no widget on a page');
  // One tab has one place: a field shown in several places would be several tabs sharing a value.
  if (widgets.length > 1) return refuse(`it is shown in ${widgets.length} places; a tab has one`);
  return boxedWidget(widget, refuse);
}

/** The widget, when its box is one a tab can have. */
export function boxedWidget(widget: PdfFieldWidget, refuse: (why: string) => never): PdfFieldWidget {
  if (!(widget.width > 0 && widget.height > 0)) refuse('its widget has no visible box');
  if (widget.width > MAX_SIZE || widget.height > MAX_SIZE) refuse(`its widget is larger than ${MAX_SIZE} points`);
  return widget;
}
