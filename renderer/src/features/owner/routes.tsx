export default function Screen() {
  return <div>owner</div>;
}
