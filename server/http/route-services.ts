// What every handler gets as its second argument. http/ only knows the name: server/services.ts fills it in by
// declaration merging, so the transport never imports the app.

// biome-ignore lint/suspicious/noEmptyInterface: filled in by server/services.ts through declaration merging
export interface RouteServices {}
