export default function Screen() {
  return <div>getting-started</div>;
}
