export default function Screen() {
  return <div>diagrams</div>;
}
